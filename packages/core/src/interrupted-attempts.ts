/**
 * At start-up, before the embedded pool requeues what a stop or crash left `running`: each such
 * delivery's state on the forge (a check in progress) is ended as failed, so no check waits for
 * an attempt that died. The requeued attempt then shows its own start.
 */
import type { LiveConfig } from './config/live.js';
import { errorMessage } from './errors.js';
import type { GatewayHooks } from './hooks.js';
import type { Logger } from './logger.js';
import type { RouteResolver } from './routes.js';
import type { Store } from './store.js';

/** What the journal and the forge are told about an attempt that died with the gateway. */
export const INTERRUPTED_ERROR = 'interrupted: the gateway stopped during this attempt';

/** Rows read at most: a journal with more running rows than this has bigger problems. */
const MOST_ROWS = 1000;

/** How long all the forge calls may take together: start-up waits for them. */
const TIMEOUT_MS = 60_000;

export interface InterruptedDeps {
  store: Store;
  hooks: GatewayHooks;
  config: LiveConfig;
  resolveRoute: RouteResolver;
  log: Logger;
}

/**
 * Tells `deliveryEnded` about every row left `running`; call it before `recover()`. Nothing is
 * asked when no plugin taps the hook. Failures are logged; start-up goes on.
 */
export async function endInterruptedStates(deps: InterruptedDeps): Promise<void> {
  if (!deps.hooks.deliveryEnded.isUsed()) return;
  const running = await deps.store.list({ status: 'running', limit: MOST_ROWS });
  if (running.length === 0) return;
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  const config = deps.config.current();
  await Promise.all(
    running.map(async (delivery) => {
      const log = deps.log.child({ route: delivery.route, delivery_id: delivery.deliveryId });
      try {
        const routeConfig = await deps.resolveRoute(delivery.route);
        if (!routeConfig) return;
        const credentials = await deps.hooks.credentials.promise(
          {},
          { delivery, routeConfig, config, log, signal },
        );
        await deps.hooks.deliveryEnded.promise({
          delivery,
          routeConfig,
          config,
          credentials,
          log,
          signal,
          status: 'failed',
          error: INTERRUPTED_ERROR,
        });
      } catch (error) {
        log.warn(
          { err: errorMessage(error) },
          "could not end an interrupted delivery's state on the forge",
        );
      }
    }),
  );
}
