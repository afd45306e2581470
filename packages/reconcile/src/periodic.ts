/**
 * The pass in the gateway: once it serves, then every interval. Passes never overlap; on a store
 * shared by several gateways (Redis) one of them runs each pass, under a lease. A rate-limited
 * pass brings the next one forward to the forge's `Retry-After`, never sooner than a second.
 */
import { errorMessage, type Logger, type Store } from '@webhook-gateway/core';
import type { PassResult } from './reconcile-pass.js';

/** The name of the lease a shared store hands to one gateway per pass. */
export const RECONCILE_LEASE = 'reconcile';

const MIN_DELAY_MS = 1_000;

export interface PeriodicReconcile {
  /** Runs the first pass now and schedules the next ones. */
  start(): void;
  /** Stops scheduling and waits for a running pass (cancelled through `signal`). */
  stop(): Promise<void>;
}

export function periodicReconcile(options: {
  intervalMs: number;
  store: Store;
  log: Logger;
  runPass(signal: AbortSignal): Promise<PassResult>;
  /** Each finished pass (metrics, the dashboard). */
  onPass(result: PassResult): void;
}): PeriodicReconcile {
  const { intervalMs, store, log } = options;
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = tick().finally(() => {
          running = undefined;
        });
      },
      Math.max(MIN_DELAY_MS, delayMs),
    );
    timer.unref();
  };

  async function tick(): Promise<void> {
    let nextMs = intervalMs;
    try {
      if (
        store.tryLease &&
        !(await store.tryLease(RECONCILE_LEASE, Math.floor(intervalMs * 0.9)))
      ) {
        log.debug('another gateway runs this reconcile pass');
      } else {
        const result = await options.runPass(abort.signal);
        report(log, result);
        options.onPass(result);
        if (result.retryAfterMs !== undefined) nextMs = Math.min(intervalMs, result.retryAfterMs);
      }
    } catch (error) {
      log.error(
        { err: errorMessage(error) },
        'the reconcile pass failed; the next one runs as planned',
      );
    }
    schedule(nextMs);
  }

  return {
    start() {
      running = tick().finally(() => {
        running = undefined;
      });
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      await running;
    },
  };
}

/** One line per route: what was listed, found, asked for again, or why it could not be. */
function report(log: Logger, result: PassResult): void {
  for (const route of result.routes) {
    const counts = {
      route: route.route,
      listed: route.listed,
      journaled: route.journaled,
      redelivered: route.redelivered,
      failed: route.failed,
    };
    if (route.error !== undefined)
      log.warn({ ...counts, err: route.error }, 'reconcile: the route could not be reconciled');
    else if (route.redelivered > 0)
      log.info(
        { ...counts, delivery_ids: route.redeliveredGuids },
        'reconcile: asked the forge to redeliver what never arrived',
      );
    else log.info(counts, 'reconcile: nothing missing');
  }
}
