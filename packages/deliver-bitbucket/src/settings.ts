/**
 * `platforms.bitbucket`: Bitbucket Cloud, where the targets answer. Core validates it with the
 * rest of the config (an error names `platforms.bitbucket.<key>`), with these defaults.
 */
import { z } from 'zod';

/** `platforms.bitbucket`. */
export const bitbucketSettingsSchema = z
  .strictObject({
    /** The REST API's root (`/2.0`). */
    base_url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) address' })
      .default('https://api.bitbucket.org/2.0'),
    /**
     * A workspace, project or repository access token with pull request write access, sent as
     * `Authorization: Bearer …`.
     */
    token: z.string().min(1).optional(),
    /**
     * The token's account (its `uuid` with braces, `account_id` or `nickname`). With
     * `mode: update`, only that account's marked comments are the route's own. The loop guard
     * ignores its comments: Bitbucket will not name an access token's bot user (`GET /user`).
     */
    bot: z.string().min(1).optional(),
  })
  .prefault({});

export type BitbucketSettings = z.output<typeof bitbucketSettingsSchema>;

/** What a call needs: the API's root and the token. */
export interface BitbucketConnection {
  /** `https://api.bitbucket.org/2.0`, no trailing slash. */
  apiBase: string;
  token: string;
}

/** The connection, or the key that is missing. */
export function bitbucketConnection(
  settings: BitbucketSettings,
): { ok: true; connection: BitbucketConnection } | { ok: false; missing: 'token' } {
  if (settings.token === undefined) return { ok: false, missing: 'token' };
  return {
    ok: true,
    connection: { apiBase: settings.base_url.replace(/\/+$/, ''), token: settings.token },
  };
}
