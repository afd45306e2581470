/**
 * `webhook-gateway app status`: the App of `platforms.forge.app` as the forge sees it (its
 * installations and webhook), and whether its webhook reaches a route of this gateway.
 */
import { ConfigError, settingsIn } from '@webhook-gateway/core';
import forgeCommentPlugin from '@webhook-gateway/deliver-forge-comment';
import {
  AppClient,
  DEFAULT_API_URL,
  readAppKey,
  readAppStatus,
} from '@webhook-gateway/deliver-forge-comment/app';
import { z } from 'zod';
import { loadContext } from '../../context.js';
import { parseOptions } from '../deliveries/options.js';
import { webhookMatch } from './status-check.js';
import { appStatusExitCode, appStatusJson, formatAppStatus } from './status-format.js';

const statusOptionsSchema = z.object({
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
  json: z.boolean().default(false),
});

/** `platforms.forge.app` is not set: there is no App to ask about. */
class NoAppError extends Error {
  constructor(file: string) {
    super(
      `platforms.forge.app is not configured in ${file}: there is no App to show; create one with webhook-gateway app create, or set it (docs/github-app.md)`,
    );
    this.name = 'NoAppError';
  }
}

export async function appStatus(raw: unknown): Promise<void> {
  const options = parseOptions(statusOptionsSchema, raw);
  const context = await loadContext(options);
  const forge = settingsIn(forgeCommentPlugin, context.config).forge;
  if (!forge.app) throw new NoAppError(context.path ?? `${context.home}/config.yaml (none)`);
  const key = readAppKey(forge.app, context.home);
  if (!key.ok) throw new ConfigError([key.problem]);
  const apiUrl = (forge.api_url ?? DEFAULT_API_URL).replace(/\/+$/, '');
  const client = new AppClient({ appId: forge.app.app_id, privateKey: key.pem, apiUrl });
  const status = await readAppStatus(client);
  const { extra } = context.config.platforms.webhook;
  const match = webhookMatch(status.webhook.url, extra.public_url, Object.keys(extra.routes));
  process.stdout.write(
    options.json
      ? `${JSON.stringify(appStatusJson(status, apiUrl, match), null, 2)}\n`
      : `${formatAppStatus(status, apiUrl, match)}\n`,
  );
  process.exitCode = appStatusExitCode(status, match);
}
