/**
 * How the forge CLI (`gh`) is called for `forge_comment`: argv, environment, and the stderr texts
 * that tell its failures apart.
 */
import type { Credentials } from '@webhook-gateway/core';
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
 * gh's host: `platforms.forge.host`, else the host of `platforms.forge.api_url`
 * (`api.github.com` is github.com), else none (gh's default, github.com).
 */
export function forgeHostOf(settings: Pick<ForgeSettings, 'host' | 'api_url'>): string | undefined {
  if (settings.host !== undefined) return normalizeForgeHost(settings.host) || undefined;
  if (settings.api_url === undefined) return undefined;
  const host = new URL(settings.api_url).host.toLowerCase();
  return host === 'api.github.com' ? 'github.com' : host;
}

/**
 * The variables gh gets besides the gateway's own environment: `GH_HOST` when a host is set,
 * `GH_TOKEN` when a token is set, and `GH_ENTERPRISE_TOKEN` too off github.com (gh reads that one
 * for enterprise hosts). With `platforms.forge.app` the token is the delivery's installation
 * token from `credentials`, never `platforms.forge.token`; none there is "not an App delivery".
 */
export function forgeEnv(
  settings: ForgeSettings,
  credentials: Credentials = {},
): Record<string, string> {
  // Never prompt (there is nobody to answer) and keep stderr free of colour codes.
  const env: Record<string, string> = { GH_PROMPT_DISABLED: '1', NO_COLOR: '1' };
  const host = forgeHostOf(settings);
  if (host) env.GH_HOST = host;
  const token = settings.app ? credentials.GH_TOKEN : settings.token;
  if (settings.app && token === undefined) {
    throw Object.assign(
      new Error(
        'not an App delivery: platforms.forge.app is set and this delivery has no installation token (its payload has no installation.id); the gateway does not fall back to another identity',
      ),
      { retryable: false },
    );
  }
  if (token) {
    env.GH_TOKEN = token;
    if (host && host !== 'github.com') env.GH_ENTERPRISE_TOKEN = token;
  }
  return env;
}

/** What error messages mask: the token gh was given. */
export function forgeSecrets(env: Record<string, string>): string[] {
  return env.GH_TOKEN ? [env.GH_TOKEN] : [];
}
