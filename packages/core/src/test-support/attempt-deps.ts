/** What core's attempt and worker-pool tests run attempts with: one gateway's pieces, in memory. */
import type { AttemptDeps } from '../attempt.js';
import { liveConfig } from '../config/live.js';
import type { GatewayConfig } from '../config/schema.js';
import type { GatewayHooks } from '../hooks.js';
import { silentLogger } from '../logger.js';
import { createRouteResolver } from '../routes.js';
import type { Store } from '../store.js';
import { sampleDelivery } from '../testing/store-samples.js';

/** An attempt's dependencies on `store`, `hooks` and `config`; `random` sets the retry jitter. */
export function attemptDeps(
  store: Store,
  hooks: GatewayHooks,
  config: GatewayConfig,
  random: () => number = () => 1,
): AttemptDeps {
  const live = liveConfig(config);
  return {
    store,
    hooks,
    config: live,
    resolveRoute: createRouteResolver(live, store),
    home: '/tmp',
    log: silentLogger(),
    random,
  };
}

/** Journals one opened pull request (`d-1`, empty payload, 3 attempts) on `route`; its journal id. */
export async function acceptOne(store: Store, route: string): Promise<string> {
  const result = await store.accept(
    sampleDelivery({
      route,
      deliveryId: 'd-1',
      payload: {},
      headers: {},
      orderKey: null,
      maxAttempts: 3,
    }),
    3_600_000,
  );
  if (!result.accepted) throw new Error('not accepted');
  return result.record.id;
}
