/**
 * `platforms.messenger_a` … `messenger_d`: the slices of config this plugin owns, and each read
 * into one shape for all four.
 */
import type { SettingsOf } from '@webhook-gateway/core';
import { z } from 'zod';
import type { Endpoint, MessengerTarget } from './protocol.js';

const messengerBase = {
  enabled: z.boolean().default(false),
  home_channel: z.string().min(1).optional(),
};

/** A bot platform's slice: its token and the service's API, Telegram's by default. */
function tokenPlatform(defaultApiBase: string) {
  return z
    .strictObject({
      ...messengerBase,
      token: z.string().min(1).optional(),
      api_base: z.url().default(defaultApiBase),
    })
    .prefault({});
}

/** The schema of each slice, with its defaults (`api_base` is the real service's). */
export const messengerSettingsSchemas = {
  messenger_a: tokenPlatform('https://api.telegram.org'),
  messenger_b: tokenPlatform('https://discord.com'),
  messenger_c: tokenPlatform('https://slack.com'),
  messenger_d: z
    .strictObject({
      ...messengerBase,
      number: z.string().min(1).optional(),
      api_base: z.url().default('http://127.0.0.1:8080'),
    })
    .prefault({}),
} as const;

/** The real services' names, accepted in config for the canonical platform and target names. */
export const messengerAliases = {
  telegram: 'messenger_a',
  discord: 'messenger_b',
  slack: 'messenger_c',
  signal: 'messenger_d',
} as const;

/** The four slices validated, defaults filled in, as `setup` receives them. */
export type MessengerSettings = SettingsOf<typeof messengerSettingsSchemas>;

export interface PlatformSettings {
  enabled: boolean;
  homeChannel: string | undefined;
  /** `api_base` without trailing slashes. */
  apiBase: string;
  /** `token`, or `number` for messenger_d. */
  credential: string | undefined;
}

/** Reads `platforms.<target>` from the plugin's settings. */
export function platformSettings(
  settings: MessengerSettings,
  target: MessengerTarget,
): PlatformSettings {
  const credential =
    target === 'messenger_d' ? settings.messenger_d.number : settings[target].token;
  const platform = settings[target];
  return {
    enabled: platform.enabled,
    homeChannel: platform.home_channel,
    apiBase: platform.api_base.replace(/\/+$/, ''),
    credential,
  };
}

/** The endpoint to call, or `undefined` when the credential is missing. */
export function endpointOf(settings: PlatformSettings): Endpoint | undefined {
  return settings.credential === undefined
    ? undefined
    : { apiBase: settings.apiBase, credential: settings.credential };
}
