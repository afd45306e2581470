/**
 * The overview page's data: one bounded read of the journal (the newest `scanLimit` rows, as the
 * routes page reads them), turned into the numbers of its charts.
 */
import type { Store } from '@webhook-gateway/core';
import {
  agentTimeByRoute,
  HOUR_MS,
  outcomesPerHour,
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
   * When the scan stopped at its limit before reaching the oldest day charted: the reception
   * time of the oldest row it read (the charts are complete from there on). Undefined when
   * nothing was left out.
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
  const rows = await store.list({ limit: options.scanLimit });
  const hours = OVERVIEW_WINDOWS[window];
  const usage = usagePerDay(rows, { now, days: USAGE_DAYS });
  const oldestCharted = Math.min(
    Math.floor(now / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS,
    usage.days[0] ?? now,
  );
  const oldestRead = rows.at(-1)?.receivedAt;
  const cut =
    rows.length >= options.scanLimit && oldestRead !== undefined && oldestRead > oldestCharted;
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
