/**
 * At start, when a route delivers to Gitea: one `GET /user` with the token, logged as
 * `gitea connected as <login>` (with a warning when that is not `platforms.gitea.bot`), or
 * `gitea not connected: <reason>`. Never fatal: each delivery retries anyway.
 */
import type { Logger } from '@webhook-gateway/core';
import {
  checkService,
  logConnection,
  type CheckOptions,
  type CheckOutcome,
} from '@webhook-gateway/target-kit';
import { z } from 'zod';
import { giteaConnection, type GiteaSettings } from './settings.js';

const userSchema = z.object({ login: z.string().min(1) });

/** Asks who the token is. Never throws. */
export async function checkGitea(
  settings: GiteaSettings,
  options: CheckOptions,
): Promise<CheckOutcome> {
  const found = giteaConnection(settings);
  if (!found.ok) return { connected: false, reason: `platforms.gitea.${found.missing} is not set` };
  const { apiBase, token } = found.connection;
  return checkService(
    {
      service: 'Gitea',
      request: () => ({
        method: 'GET',
        url: `${apiBase}/user`,
        headers: { authorization: `token ${token}`, accept: 'application/json' },
      }),
      classify: (answer) => {
        const user = userSchema.safeParse(answer.body);
        if (answer.status === 200 && user.success) {
          return { connected: true, identity: user.data.login };
        }
        return {
          connected: false,
          reason: `GET /user answered HTTP ${answer.status}${answer.status === 401 ? ' (check platforms.gitea.token)' : ''}`,
        };
      },
      secrets: [token],
    },
    options,
  );
}

/** Logs the check's verdict, and a mismatch with the configured bot account. */
export async function logGiteaConnection(
  settings: GiteaSettings,
  log: Logger,
  options: CheckOptions,
): Promise<void> {
  const outcome = await checkGitea(settings, options);
  logConnection(log, 'gitea', 'gitea', outcome);
  if (outcome.connected && settings.bot !== undefined && outcome.identity !== settings.bot) {
    log.warn(
      { platform: 'gitea', identity: outcome.identity, bot: settings.bot },
      'the gitea token is not the account platforms.gitea.bot names: mode: update will not find its comments',
    );
  }
}
