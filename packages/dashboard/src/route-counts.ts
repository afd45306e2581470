/**
 * Each route's deliveries of the last 24 h, counted from the journal rows the store lists.
 * `Store.list` returns at most `limit` rows (newest first), so the counts are exact only while
 * the window holds fewer rows than that; `complete` says whether they are.
 */
import type { DeliveryRecord, DeliveryStatus } from '@webhook-gateway/core';

export const DAY_MS = 86_400_000;

/** How many deliveries of one route arrived in the window, by their status now. */
export type RouteCounts = { received: number } & Record<DeliveryStatus, number>;

export interface RouteCountsResult {
  byRoute: Map<string, RouteCounts>;
  /** False when the scan stopped at its limit: older rows of the window were not seen. */
  complete: boolean;
}

function emptyCounts(): RouteCounts {
  return {
    received: 0,
    queued: 0,
    running: 0,
    delivered: 0,
    failed: 0,
    denied: 0,
    over_budget: 0,
    superseded: 0,
    silent: 0,
    skipped: 0,
  };
}

/**
 * Counts rows received since `since`, starting every route of `routeNames` at zero.
 *
 * @param scanned the newest rows the store listed, `scanLimit` at most
 */
export function countByRoute(
  scanned: readonly DeliveryRecord[],
  options: { since: number; routeNames: readonly string[]; scanLimit: number },
): RouteCountsResult {
  const byRoute = new Map<string, RouteCounts>();
  for (const name of options.routeNames) byRoute.set(name, emptyCounts());
  for (const record of scanned) {
    if (record.receivedAt < options.since) continue;
    const counts = byRoute.get(record.route) ?? emptyCounts();
    counts.received++;
    counts[record.status]++;
    byRoute.set(record.route, counts);
  }
  return { byRoute, complete: scanned.length < options.scanLimit };
}
