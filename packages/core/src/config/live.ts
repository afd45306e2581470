/**
 * The one config the running gateway reads. `current()` is read at each decision (a request, an
 * attempt, a scheduling pass), so a reload applies to the next one and never to work under way.
 */
import type { GatewayConfig } from './schema.js';

export interface LiveConfig {
  current(): GatewayConfig;
  /** Makes `next` the config from now on (its checks have passed). */
  replace(next: GatewayConfig): void;
}

export function liveConfig(initial: GatewayConfig): LiveConfig {
  let config = initial;
  return {
    current: () => config,
    replace(next) {
      config = next;
    },
  };
}
