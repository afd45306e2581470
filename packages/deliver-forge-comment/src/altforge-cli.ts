/**
 * How the altforge CLI (`glab`) is called for `altforge_comment`: argv, environment, and the
 * stderr texts that tell its failures apart.
 */
import type { Credentials } from '@webhook-gateway/core';
import type { AltforgeMergeRequest } from './altforge-target.js';
import { ALTFORGE_TARGET } from './target-names.js';
import type { CliProfile } from './cli-profile.js';
import type { AltforgeSettings } from './settings.js';

/** The altforge's limit on one note body, in characters. */
export const ALTFORGE_NOTE_LIMIT = 1_000_000;

export const ALTFORGE_PROFILE: CliProfile = {
  platform: 'altforge',
  target: ALTFORGE_TARGET,
  action: 'mr note',
  defaultHost: 'gitlab.com',
  // glab without credentials asks for "glab auth login"; the API answers "401 Unauthorized".
  notAuthenticated: /auth login|\b401\b|unauthori[sz]ed|not logged in|no token/i,
  // "404 Project Not Found", "404 Not found", "no merge request available"
  notFound: /\b404\b|not found|no merge request/i,
  hints: [
    {
      // Older glab releases ignore stdin and, with no terminal for an editor, abort like this.
      stderr: /empty message/i,
      hint: 'this glab did not read the note from standard input; upgrade glab to a release whose "glab mr note" reads stdin when it is not a terminal',
    },
  ],
};

/**
 * `glab mr note <iid> --repo <path>` with the note on stdin. No `--message`: glab reads the note
 * from stdin when stdin is not a terminal and `--message` is not given (`--message -` would post
 * a literal "-").
 */
export function altforgeNoteArgv(mergeRequest: AltforgeMergeRequest): string[] {
  return ['mr', 'note', String(mergeRequest.iid), '--repo', mergeRequest.path];
}

/**
 * The variables glab gets besides the gateway's own environment: the delivery's project token
 * (`credentials`, from `platforms.altforge.tokens`) before `platforms.altforge.token`.
 */
export function altforgeEnv(
  settings: AltforgeSettings,
  credentials: Credentials = {},
): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: '1' };
  if (settings.host) env.GITLAB_HOST = settings.host.trim();
  const token = credentials.GITLAB_TOKEN ?? settings.token;
  if (token) env.GITLAB_TOKEN = token;
  return env;
}

/** What error messages mask: the token glab was given. */
export function altforgeSecrets(env: Record<string, string>): string[] {
  return env.GITLAB_TOKEN ? [env.GITLAB_TOKEN] : [];
}
