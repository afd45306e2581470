/**
 * The target names this package serves, known without loading their protocols: the plugin taps
 * them and decides at start whether the config uses any, and only then loads the protocols.
 */
import type { GatewayConfig } from '@webhook-gateway/core';
import type { MessengerSettings } from './platform-settings.js';
import type { MessengerTarget } from './protocol.js';

export const MESSENGER_TARGETS: readonly MessengerTarget[] = Object.freeze([
  'messenger_a',
  'messenger_b',
  'messenger_c',
  'messenger_d',
]);

/** True for a target name this package serves. */
export function isMessengerTarget(name: string): name is MessengerTarget {
  return (MESSENGER_TARGETS as readonly string[]).includes(name);
}

/** True when a messenger platform is enabled or a route delivers to one. */
export function usesMessengers(settings: MessengerSettings, config: GatewayConfig): boolean {
  return (
    MESSENGER_TARGETS.some((target) => settings[target].enabled) ||
    Object.values(config.platforms.webhook.extra.routes).some((route) =>
      isMessengerTarget(route.deliver),
    )
  );
}
