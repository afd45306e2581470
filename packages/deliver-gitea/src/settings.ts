/**
 * `platforms.gitea`: the Gitea or Forgejo instance the targets answer on. Core validates it with
 * the rest of the config (an error names `platforms.gitea.<key>`), with these defaults.
 */
import { z } from 'zod';

/** `platforms.gitea`. */
export const giteaSettingsSchema = z
  .strictObject({
    /**
     * The instance's address (`https://gitea.example.com`, `https://codeberg.org`); the REST API
     * is under `/api/v1` of it. An address that already ends in `/api/v1` is taken as it is.
     */
    base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) address' }).optional(),
    /** An access token with write access to issues and pull requests (`Authorization: token …`). */
    token: z.string().min(1).optional(),
    /**
     * The account the token belongs to (its login). With `mode: update`, only that account's
     * marked comments are the route's own: a person's comment quoting the marker is never edited.
     * The loop guard ignores its comments, as it does those of the token's account (`GET /user`).
     */
    bot: z.string().min(1).optional(),
  })
  .prefault({});

export type GiteaSettings = z.output<typeof giteaSettingsSchema>;

/** What a call needs: the API's root and the token. */
export interface GiteaConnection {
  /** `https://<host>/api/v1`, no trailing slash. */
  apiBase: string;
  token: string;
}

/** The API root of `base_url`: `/api/v1` added unless it is there already. */
export function giteaApiBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return /\/api\/v1$/.test(trimmed) ? trimmed : `${trimmed}/api/v1`;
}

/** The connection, or the first key that is missing. */
export function giteaConnection(
  settings: GiteaSettings,
): { ok: true; connection: GiteaConnection } | { ok: false; missing: 'base_url' | 'token' } {
  if (settings.base_url === undefined) return { ok: false, missing: 'base_url' };
  if (settings.token === undefined) return { ok: false, missing: 'token' };
  return {
    ok: true,
    connection: { apiBase: giteaApiBase(settings.base_url), token: settings.token },
  };
}
