/** What the admin listener's handlers are made from; each takes the parts it uses. */
import type { GatewayConfig, Logger, Store } from '@webhook-gateway/core';
import type { AccessGate } from '../access.js';
import type { IgnoredTally } from '../ignored-tally.js';
import type { GatewayMetrics } from '../metrics.js';
import type { DashboardOptions } from '../options.js';

export interface HandlerDeps {
  gate: AccessGate;
  store: Store;
  config: GatewayConfig;
  metrics: GatewayMetrics;
  /** Ignored requests per hour, which the journal does not keep (the overview charts them). */
  ignored: IgnoredTally;
  options: DashboardOptions;
  log: Logger;
  now: () => number;
  /** How often a page reloads its live parts (`refresh_s`, in ms). */
  refreshMs: number;
}
