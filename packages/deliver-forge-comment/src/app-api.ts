/**
 * The GitHub App's own API from the config's settings, called as the App (a JWT signed with its
 * key, as the targets' token exchanges are), for programs that read what belongs to the App
 * rather than to one installation: reconcile reads the App's webhook (`/app/hook/config`,
 * `/app/hook/deliveries`) with it. Exported from `./app`.
 */
import type { AppApiAnswer } from './app-api-call.js';
import { appClientFor } from './app-session.js';
import type { ForgeSettings } from './settings.js';

export type { AppApiAnswer } from './app-api-call.js';

/** Calls as the App of `platforms.forge.app`, at `platforms.forge.api_url`. */
export interface AppApi {
  /** The REST API base the calls go to, without a trailing slash. */
  readonly apiUrl: string;
  /**
   * `method path` (from the API base: `/app/hook/config`) with a fresh JWT; the answer whatever
   * its status. Throws only when no answer came (the message names the request, never the JWT).
   */
  request(method: 'GET' | 'POST', path: string, signal?: AbortSignal): Promise<AppApiAnswer>;
}

/**
 * The App API of `settings.app`, its key read now from `private_key_file` (relative to `home`)
 * or `private_key`: a bad key throws a `ConfigError` naming the key path. Throws when
 * `settings.app` is not set.
 *
 * @example
 * const app = appApi(settingsIn(forgeCommentPlugin, config).forge, home);
 * const answer = await app.request('GET', '/app/hook/config');
 */
export function appApi(settings: ForgeSettings, home: string): AppApi {
  if (!settings.app) throw new Error('platforms.forge.app is not set: there is no App to call as');
  const client = appClientFor(settings.app, settings, home);
  return {
    apiUrl: client.apiUrl,
    request: (method, path, signal) => client.requestAsApp(method, path, signal),
  };
}
