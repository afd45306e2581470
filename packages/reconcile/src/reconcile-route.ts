/**
 * One route's reconcile: read the hook's log, and ask the forge to send again every delivery that
 * is neither in the journal for the route nor answered 2xx. A journaled delivery is never asked
 * for again; an ignored one (answered 200) is not missing either.
 */
import type { ReconcileRouteCounts, Store } from '@webhook-gateway/core';
import type { DeliveryLog, LoggedDelivery } from './delivery-log.js';
import { ReconcileFailure } from './failures.js';

export interface RouteReconcileResult extends ReconcileRouteCounts {
  /** The GUIDs asked for again (or, on a dry run, that would be). */
  redeliveredGuids: string[];
  /** For a rate limit: how long the forge asked to wait (ms). */
  retryAfterMs?: number;
  /** The newest delivery seen, up to which the next pass need not read (ms); undefined: keep. */
  cursorMs?: number;
}

/** Each GUID once: its newest attempt, and whether any attempt was answered 2xx. */
function byGuid(
  listed: readonly LoggedDelivery[],
): Map<string, { newest: LoggedDelivery; answered: boolean }> {
  const guids = new Map<string, { newest: LoggedDelivery; answered: boolean }>();
  for (const delivery of listed) {
    const answered = delivery.statusCode >= 200 && delivery.statusCode < 300;
    const seen = guids.get(delivery.guid);
    if (!seen) guids.set(delivery.guid, { newest: delivery, answered });
    else {
      seen.answered ||= answered;
      if (delivery.deliveredAt > seen.newest.deliveredAt) seen.newest = delivery;
    }
  }
  return guids;
}

export async function reconcileRoute(options: {
  route: string;
  log: DeliveryLog;
  store: Store;
  sinceMs: number;
  dryRun: boolean;
}): Promise<RouteReconcileResult> {
  const { route, log, store } = options;
  const listed = await log.list(options.sinceMs);
  const guids = byGuid(listed);
  const journaled = await store.journaledDeliveryIds(route, [...guids.keys()]);
  // Oldest first: the forge sends them again in the order they first happened.
  const missing = [...guids.values()]
    .filter(({ newest, answered }) => !answered && !journaled.has(newest.guid))
    .map(({ newest }) => newest)
    .sort(
      (a, b) => a.deliveredAt - b.deliveredAt || a.id.localeCompare(b.id, 'en', { numeric: true }),
    );

  const result: RouteReconcileResult = {
    route,
    listed: guids.size,
    journaled: journaled.size,
    redelivered: 0,
    failed: 0,
    redeliveredGuids: [],
  };
  const newestMs = listed.reduce((max, d) => Math.max(max, d.deliveredAt), -Infinity);
  if (Number.isFinite(newestMs)) result.cursorMs = newestMs;
  if (options.dryRun) {
    result.redelivered = missing.length;
    result.redeliveredGuids = missing.map((d) => d.guid);
    return result;
  }

  let oldestUnsent: LoggedDelivery | undefined;
  for (const [index, delivery] of missing.entries()) {
    try {
      await log.redeliver(delivery);
      result.redelivered++;
      result.redeliveredGuids.push(delivery.guid);
    } catch (error) {
      oldestUnsent ??= delivery;
      if (error instanceof ReconcileFailure && error.kind === 'rate-limited') {
        // The rest waits for the next pass, which Retry-After schedules.
        result.failed += missing.length - index;
        result.error = error.message;
        if (error.retryAfterMs !== undefined) result.retryAfterMs = error.retryAfterMs;
        break;
      }
      result.failed++;
      result.error ??= error instanceof Error ? error.message : String(error);
    }
  }
  // The next pass must read an unsent delivery again: the cursor stays just before it.
  if (oldestUnsent !== undefined) {
    result.cursorMs = Math.min(result.cursorMs ?? Infinity, oldestUnsent.deliveredAt - 1);
  }
  return result;
}
