/**
 * The overview page's data: one bounded read of the journal (the outlines of at most `scanLimit`
 * rows received since the oldest hour or day charted), turned into the numbers of its charts.
 */
import type { Store } from '@webhook-gateway/core';
import {
  agentTimeByRoute,
  DAY_MS,
  HOUR_MS,
  outcomesPerHour,
  unitStarts,
  usagePerDay,
  type DailyUsage,
  type HourOutcomes,
  type RouteAgentTime,
} from './overview-data.js';

/** The windows the hourly chart offers, and how many hours each spans. */
export const OVERVIEW_WINDOWS = { '24h': 24, '7d': 7 * 24 } as const;
export type OverviewWindow = keyof typeof OVERVIEW_WINDOWS;

/** Tokens and money are charted per day over this many days, whatever the window. */
export const USAGE_DAYS = 7;

export interface Overview {
  window: OverviewWindow;
  hourly: HourOutcomes[];
  agentTimes: RouteAgentTime[];
  usage: DailyUsage;
  /**
   * When the read stopped at its limit: the reception time of the oldest row it read (the charts
   * are complete from there on). Undefined when nothing was left out.
   */
  coveredSince?: number;
}

/** Reads the journal once and computes every chart of the overview page. */
export async function overviewOf(
  store: Store,
  options: {
    now: number;
    window: OverviewWindow;
    scanLimit: number;
    ignoredByHour: ReadonlyMap<number, number>;
  },
): Promise<Overview> {
  const { now, window } = options;
  const hours = OVERVIEW_WINDOWS[window];
  const days = unitStarts(now, DAY_MS, USAGE_DAYS);
  const oldestCharted = Math.min(unitStarts(now, HOUR_MS, hours)[0] ?? now, days[0] ?? now);
  const rows = await store.outlines(oldestCharted, options.scanLimit);
  const usage = usagePerDay(rows, { now, days: USAGE_DAYS });
  // Newest first by seq; a replay keeps its reception time, so take the oldest of all.
  const oldestRead = rows.reduce((oldest, row) => Math.min(oldest, row.receivedAt), now);
  const cut = rows.length >= options.scanLimit;
  const hourly = outcomesPerHour(rows, { now, hours, ignoredByHour: options.ignoredByHour });
  return {
    window,
    hourly,
    // The same rows as the hourly chart: received since its first hour.
    agentTimes: agentTimeByRoute(rows, { since: hourly[0]?.start ?? now }),
    usage,
    ...(cut ? { coveredSince: oldestRead } : {}),
  };
}
