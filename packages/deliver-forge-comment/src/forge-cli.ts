/**
 * How the forge CLI (`gh`) is called for `forge_comment`: argv, environment, and the stderr texts
 * that tell its failures apart.
 */
import type { CliProfile } from './cli-profile.js';
import type { ForgePullRequest } from './forge-target.js';
import { FORGE_TARGET } from './target-names.js';
import type { ForgeSettings } from './settings.js';

/** The forge's limit on one comment body, in characters. */
export const FORGE_COMMENT_LIMIT = 65_536;

export const FORGE_PROFILE: CliProfile = {
  platform: 'forge',
  target: FORGE_TARGET,
  action: 'pr comment',
  defaultHost: 'github.com',
  // gh without credentials prints "To get started with GitHub CLI, please run:  gh auth login";
  // a rejected token comes back as "HTTP 401: Bad credentials".
  notAuthenticated: /auth login|bad credentials|HTTP 401|requires authentication/i,
  // "GraphQL: Could not resolve to a Repository with the name 'o/r'. (repository)",
  // "GraphQL: Could not resolve to a PullRequest with the number of 9999. (repository.pullRequest)"
  notFound: /could not resolve to a|HTTP 404|not found/i,
};

/**
 * `gh pr comment <n> --repo <owner/repo> --body-file -`: the body comes on stdin, so no answer
 * text ever reaches argv (no length limit, nothing visible in `ps`).
 */
export function forgeCommentArgv(pullRequest: ForgePullRequest): string[] {
  return [
    'pr',
    'comment',
    String(pullRequest.prNumber),
    '--repo',
    pullRequest.repo,
    '--body-file',
    '-',
  ];
}

/** A host as gh wants it in `GH_HOST`: a bare host name (a pasted URL is reduced to its host). */
export function normalizeForgeHost(host: string): string {
  return host
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/\/.*$/, '')
    .toLowerCase();
}

/**
 * The variables gh gets besides the gateway's own environment: `GH_HOST` when a host is set,
 * `GH_TOKEN` when a token is set, and `GH_ENTERPRISE_TOKEN` too off github.com (gh reads that one
 * for enterprise hosts).
 */
export function forgeEnv(settings: ForgeSettings): Record<string, string> {
  // Never prompt (there is nobody to answer) and keep stderr free of colour codes.
  const env: Record<string, string> = { GH_PROMPT_DISABLED: '1', NO_COLOR: '1' };
  const host = settings.host === undefined ? undefined : normalizeForgeHost(settings.host);
  if (host) env.GH_HOST = host;
  if (settings.token) {
    env.GH_TOKEN = settings.token;
    if (host && host !== 'github.com') env.GH_ENTERPRISE_TOKEN = settings.token;
  }
  return env;
}
