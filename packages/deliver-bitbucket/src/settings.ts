/**
 * `platforms.bitbucket`: Bitbucket Cloud, and under `data_center` a Bitbucket Data Center
 * (Server), where the targets answer. Core validates it with the rest of the config (an error
 * names `platforms.bitbucket.<key>`), with these defaults.
 */
import { z } from 'zod';

const httpAddress = z.url({ protocol: /^https?$/, error: 'must be an http(s) address' });

/** `platforms.bitbucket.data_center`. */
const dataCenterSettingsSchema = z.strictObject({
  /**
   * The server's address (`https://bitbucket.example.com`, with its context path if it has one);
   * the REST API is under `/rest/api/1.0` of it. An address that already ends in
   * `/rest/api/1.0` (or `/rest/api/latest`) is taken without it.
   */
  base_url: httpAddress,
  /**
   * An HTTP access token (project, repository or personal) with write access to pull requests,
   * sent as `Authorization: Bearer …`.
   */
  token: z.string().min(1).optional(),
  /**
   * The token's user (its `name` or `slug`). With `mode: update`, only that user's marked
   * comments are the route's own.
   */
  bot: z.string().min(1).optional(),
});

/** `platforms.bitbucket`. */
export const bitbucketSettingsSchema = z
  .strictObject({
    /** Bitbucket Cloud's REST API root (`/2.0`). */
    base_url: httpAddress.default('https://api.bitbucket.org/2.0'),
    /**
     * A Cloud workspace, project or repository access token with pull request write access, sent
     * as `Authorization: Bearer …`.
     */
    token: z.string().min(1).optional(),
    /**
     * The Cloud token's account (its `uuid` with braces, `account_id` or `nickname`). With
     * `mode: update`, only that account's marked comments are the route's own. The loop guard
     * ignores its comments: Bitbucket will not name an access token's bot user (`GET /user`).
     */
    bot: z.string().min(1).optional(),
    /** A Bitbucket Data Center (Server): where `pr:*` events' pull requests are answered. */
    data_center: dataCenterSettingsSchema.optional(),
  })
  .prefault({});

export type BitbucketSettings = z.output<typeof bitbucketSettingsSchema>;

/** What a call needs: the API's root and the token. */
export interface BitbucketConnection {
  /** `https://api.bitbucket.org/2.0` or `https://<host>/rest/api/1.0`, no trailing slash. */
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

/** A Data Center's connection: the server's address as well, for the pages it links to. */
export interface DataCenterConnection extends BitbucketConnection {
  /** `https://<host>[/<context>]`, no trailing slash. */
  serverUrl: string;
}

/** The server's address of `base_url`: a trailing `/rest/api/1.0` or `/rest/api/latest` dropped. */
function dataCenterServerUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/rest\/api\/(1\.0|latest)$/, '');
}

/** The Data Center connection, or the key under `platforms.bitbucket` that is missing. */
export function dataCenterConnection(
  settings: BitbucketSettings,
):
  | { ok: true; connection: DataCenterConnection }
  | { ok: false; missing: 'data_center.base_url' | 'data_center.token' } {
  const dataCenter = settings.data_center;
  if (dataCenter === undefined) return { ok: false, missing: 'data_center.base_url' };
  if (dataCenter.token === undefined) return { ok: false, missing: 'data_center.token' };
  const serverUrl = dataCenterServerUrl(dataCenter.base_url);
  return {
    ok: true,
    connection: { serverUrl, apiBase: `${serverUrl}/rest/api/1.0`, token: dataCenter.token },
  };
}
