/** A messenger platform's settings (`platforms.<target>`) in one shape for all four. */
import type { GatewayConfig } from '@webhook-gateway/core';
import type { Endpoint, MessengerTarget } from './protocol.js';

export interface PlatformSettings {
  enabled: boolean;
  homeChannel: string | undefined;
  /** `api_base` without trailing slashes. */
  apiBase: string;
  /** `token`, or `number` for messenger_d. */
  credential: string | undefined;
}

/** Reads `platforms.<target>` of a validated config. */
export function platformSettings(config: GatewayConfig, target: MessengerTarget): PlatformSettings {
  const platforms = config.platforms;
  const credential =
    target === 'messenger_d' ? platforms.messenger_d.number : platforms[target].token;
  const platform = platforms[target];
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
