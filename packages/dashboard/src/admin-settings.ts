/** The admin listener's settings (`platforms.webhook.extra.admin`) and why they may be refused. */
import { isLoopbackHost, type ConfigProblem, type WebhookSettings } from '@webhook-gateway/core';

/** `platforms.webhook.extra.admin` with its defaults filled in. */
export type AdminSettings = NonNullable<WebhookSettings['admin']>;

/** Shorter tokens are refused: the token is the only lock on /metrics and /dashboard. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

const TOKEN_PATH = 'platforms.webhook.extra.admin.token';

/**
 * What keeps the admin listener from starting. A token is required on every host, loopback
 * included: other local users and processes (and a browser tricked by DNS rebinding) reach
 * loopback too.
 */
export function adminSettingsProblems(admin: AdminSettings): ConfigProblem[] {
  const where = isLoopbackHost(admin.host)
    ? `${admin.host}`
    : `${admin.host}, which is not a loopback address`;
  if (admin.token === undefined) {
    return [
      {
        path: TOKEN_PATH,
        message: `is not set, and the admin listener (${where}) serves /metrics and /dashboard only behind a token: set one of at least ${MIN_ADMIN_TOKEN_LENGTH} random characters (for example "\${WEBHOOK_ADMIN_TOKEN}"), or remove platforms.webhook.extra.admin`,
      },
    ];
  }
  if (admin.token.length < MIN_ADMIN_TOKEN_LENGTH) {
    return [
      {
        path: TOKEN_PATH,
        message: `is too short to guard the admin listener (${where}): use at least ${MIN_ADMIN_TOKEN_LENGTH} random characters`,
      },
    ];
  }
  return [];
}
