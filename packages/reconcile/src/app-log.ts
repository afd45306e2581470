/**
 * The GitHub App's own webhook, whose log reconcile reads for the App's route: called as the App
 * (a JWT signed with its key, by the deliver-forge-comment plugin's App client) at
 * `platforms.forge.api_url`. The App's route is the one its webhook points at:
 * `GET /app/hook/config` against `<public_url>/webhooks/<route>`.
 */
import { errorMessage } from '@webhook-gateway/core';
import type { AppApi } from '@webhook-gateway/deliver-forge-comment/app';
import { z } from 'zod';
import { ReconcileFailure, type FailureContext } from './failures.js';
import { withoutTrailingSlash } from './forge-log.js';
import { hookCaller, parseAnswer, type ApiCaller } from './hook-api.js';

/** The App's webhook as the API names it: its log is `app/hook/deliveries`. */
export const APP_HOOK = 'app/hook';

/** What the App needs: its JWT reads and redelivers its own webhook's deliveries. */
export const APP_HOOK_RIGHT =
  "only the App's JWT (the App's own webhook needs no installation permission)";

/** What to do when the forge refuses the App's JWT. */
export const APP_SIGN_IN =
  'check platforms.forge.app (the App ID and its private key) and platforms.forge.api_url';

const hookConfigSchema = z.object({ url: z.string().optional() });

/** `AppApi` as reconcile calls an API: an endpoint from the API root, any answer returned. */
export function appApiCaller(app: AppApi, signal: AbortSignal | undefined): ApiCaller {
  return async (method, endpoint) => {
    try {
      return await app.request(method, `/${endpoint}`, signal);
    } catch (error) {
      throw new ReconcileFailure('forge-error', errorMessage(error));
    }
  };
}

/**
 * Resolves when the App's webhook sends to `url` (this route's); otherwise a `hook-not-found`
 * failure naming both URLs, so no other route's deliveries are asked for in its name.
 */
export async function checkAppRoute(options: {
  route: string;
  url: string;
  api: ApiCaller;
  context: Omit<FailureContext, 'hook'>;
  now: () => number;
}): Promise<void> {
  const call = hookCaller({ ...options, hook: APP_HOOK });
  const response = await call('GET', `${APP_HOOK}/config`);
  const { url } = parseAnswer(hookConfigSchema, response, `${APP_HOOK}/config`);
  if (withoutTrailingSlash(url ?? '') === withoutTrailingSlash(options.url)) return;
  throw new ReconcileFailure(
    'hook-not-found',
    `route "${options.route}" is not the App's route: the App's webhook sends to ${url ? url : 'no URL'}, not to ${options.url}; point the App's webhook at it (the App's settings, Webhook URL) or fix platforms.webhook.extra.public_url`,
  );
}
