/**
 * One App client and token cache per App settings: kept across deliveries, replaced when a
 * reload changes the App, its key or the API URL.
 */
import { ConfigError } from '@webhook-gateway/core';
import { AppClient, DEFAULT_API_URL } from './app-client.js';
import { readAppKey } from './app-key.js';
import { InstallationTokens } from './installation-tokens.js';
import type { ForgeAppSettings, ForgeSettings } from './settings.js';

export interface AppSession {
  client: AppClient;
  tokens: InstallationTokens;
}

/** The App's API base: `platforms.forge.api_url`, else the public forge's. */
function apiUrlOf(settings: Pick<ForgeSettings, 'api_url'>): string {
  return (settings.api_url ?? DEFAULT_API_URL).replace(/\/+$/, '');
}

/** A client for the App of `settings`, its key read now (a bad key throws a `ConfigError`). */
export function appClientFor(
  app: ForgeAppSettings,
  settings: Pick<ForgeSettings, 'api_url'>,
  home: string,
  now?: () => number,
): AppClient {
  const key = readAppKey(app, home);
  if (!key.ok) throw new ConfigError([key.problem]);
  return new AppClient({
    appId: app.app_id,
    privateKey: key.pem,
    apiUrl: apiUrlOf(settings),
    ...(now ? { now } : {}),
  });
}

export class AppSessions {
  private current: { key: string; session: AppSession } | undefined;

  constructor(
    private readonly home: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The session for these settings (created at first use, kept while they stay the same). */
  get(app: ForgeAppSettings, settings: Pick<ForgeSettings, 'api_url'>): AppSession {
    const key = JSON.stringify([app, apiUrlOf(settings)]);
    if (this.current?.key !== key) {
      const client = appClientFor(app, settings, this.home, this.now);
      this.current = { key, session: { client, tokens: new InstallationTokens(client, this.now) } };
    }
    return this.current.session;
  }
}
