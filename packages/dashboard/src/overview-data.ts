/**
 * The overview page's numbers, computed from journal rows' outlines (`Store.outlines`): deliveries per hour by outcome, agent
 * time per route, tokens and money per route per day. Pure functions; the page decides which
 * rows to read and the charts how to draw what comes out.
 */
import { promptTokenSplit, type DeliveryOutline } from '@webhook-gateway/core';
import { z } from 'zod';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** How a delivery ended, as the hourly chart stacks it (`ignored` is never journaled). */
export const OUTCOMES = [
  'delivered',
  'failed',
  'ignored',
  'superseded',
  'denied',
  'over_budget',
  'silent',
  'skipped',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** One hour of the chart: its start (ms, on the UTC hour) and how many ended each way. */
export interface HourOutcomes {
  start: number;
  counts: Record<Outcome, number>;
}

function zeroOutcomes(): Record<Outcome, number> {
  return {
    delivered: 0,
    failed: 0,
    ignored: 0,
    superseded: 0,
    denied: 0,
    over_budget: 0,
    silent: 0,
    skipped: 0,
  };
}

/** The starts of the `count` units of `unitMs` that end with the one holding `now`, oldest first. */
export function unitStarts(now: number, unitMs: number, count: number): number[] {
  const current = Math.floor(now / unitMs) * unitMs;
  return Array.from({ length: count }, (_, index) => current - (count - 1 - index) * unitMs);
}

/**
 * Finished deliveries by the hour they were received, for the `hours` hours ending with the
 * current one. Queued and running rows have no outcome yet and are left out. `ignored` comes
 * from `ignoredByHour` (hour start to count): ignored requests are answered, not journaled.
 */
export function outcomesPerHour(
  rows: readonly DeliveryOutline[],
  options: { now: number; hours: number; ignoredByHour?: ReadonlyMap<number, number> },
): HourOutcomes[] {
  const hours = unitStarts(options.now, HOUR_MS, options.hours).map((start): HourOutcomes => ({
    start,
    counts: zeroOutcomes(),
  }));
  const first = hours[0]?.start ?? options.now;
  const indexOf = (at: number): number | undefined => {
    const index = Math.floor((at - first) / HOUR_MS);
    return index >= 0 && index < hours.length ? index : undefined;
  };
  for (const row of rows) {
    if (row.status === 'queued' || row.status === 'running') continue;
    const index = indexOf(row.receivedAt);
    if (index !== undefined) hours[index]!.counts[row.status]++;
  }
  for (const [start, count] of options.ignoredByHour ?? []) {
    const index = indexOf(start);
    if (index !== undefined) hours[index]!.counts.ignored += count;
  }
  return hours;
}

/**
 * How long a delivery's agent worked: the summed durations of its finished attempts (the run and
 * the delivery of its answer; not the time queued or waiting to retry). Null when no agent ran.
 */
export function agentTimeMs(row: Pick<DeliveryOutline, 'agent' | 'attemptLog'>): number | null {
  if (row.agent === null) return null;
  let total = 0;
  let finished = 0;
  for (const attempt of row.attemptLog) {
    if (attempt.finishedAt === null) continue;
    total += Math.max(0, attempt.finishedAt - attempt.startedAt);
    finished++;
  }
  return finished > 0 ? total : null;
}

/** The nearest-rank percentile `q` (0–1] of `values`, which must not be empty. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}

/** One route's agent time: how many runs, and their median and 95th percentile. */
export interface RouteAgentTime {
  route: string;
  runs: number;
  p50Ms: number;
  p95Ms: number;
}

/** Agent time of the finished deliveries received since `since`, per route, by route name. */
export function agentTimeByRoute(
  rows: readonly DeliveryOutline[],
  options: { since: number },
): RouteAgentTime[] {
  const byRoute = new Map<string, number[]>();
  for (const row of rows) {
    if (row.receivedAt < options.since) continue;
    if (row.status !== 'delivered' && row.status !== 'failed') continue;
    const time = agentTimeMs(row);
    if (time === null) continue;
    const times = byRoute.get(row.route) ?? [];
    times.push(time);
    byRoute.set(row.route, times);
  }
  return [...byRoute]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([route, times]) => ({
      route,
      runs: times.length,
      p50Ms: percentile(times, 0.5),
      p95Ms: percentile(times, 0.95),
    }));
}

/**
 * What a delivery's agent runs cost, when its accounting carries one (`agent.prices` was set).
 * Checked again here because a chart's sum must not turn into NaN on one odd row.
 */
const costSchema = z.object({
  amount: z.number().finite().nonnegative(),
  currency: z.string().min(1).max(16),
});
export type Cost = z.infer<typeof costSchema>;

export function costOf(row: Pick<DeliveryOutline, 'agent'>): Cost | undefined {
  const agent: unknown = row.agent;
  if (agent === null || typeof agent !== 'object' || !('cost' in agent)) return undefined;
  const parsed = costSchema.safeParse(agent.cost);
  return parsed.success ? parsed.data : undefined;
}

/** Values per series (a route, or "other routes") per day, aligned with `days`. */
export type DailySeries = Map<string, number[]>;

/** Tokens, and money per currency, per route per UTC day of reception. */
export interface DailyUsage {
  /** Day starts (UTC midnight), oldest first. */
  days: number[];
  tokens: DailySeries;
  /** Per currency; empty when no row in the window carries a cost. */
  money: Map<string, DailySeries>;
  /** The prompt tokens of all these days, and the part the provider served from its prompt cache. */
  prompt: { tokens: number; cached: number };
}

function addTo(series: DailySeries, key: string, index: number, length: number, value: number) {
  const values = series.get(key) ?? Array.from({ length }, () => 0);
  values[index]! += value;
  series.set(key, values);
}

/**
 * Tokens and money of the `days` UTC days ending today, by route and day of reception; and their
 * prompt tokens in all, cached and not.
 */
export function usagePerDay(
  rows: readonly DeliveryOutline[],
  options: { now: number; days: number },
): DailyUsage {
  const days = unitStarts(options.now, DAY_MS, options.days);
  const first = days[0] ?? options.now;
  const tokens: DailySeries = new Map();
  const money = new Map<string, DailySeries>();
  const prompt = { tokens: 0, cached: 0 };
  for (const row of rows) {
    const index = Math.floor((row.receivedAt - first) / DAY_MS);
    if (index < 0 || index >= days.length) continue;
    const usage = row.agent?.usage;
    if (usage && Number.isFinite(usage.totalTokens) && usage.totalTokens > 0) {
      addTo(tokens, row.route, index, days.length, usage.totalTokens);
    }
    if (usage && Number.isFinite(usage.promptTokens) && usage.promptTokens > 0) {
      const split = promptTokenSplit(usage);
      prompt.tokens += usage.promptTokens;
      if (Number.isFinite(split.cached)) prompt.cached += split.cached;
    }
    const cost = costOf(row);
    if (cost) {
      const series = money.get(cost.currency) ?? new Map<string, number[]>();
      addTo(series, row.route, index, days.length, cost.amount);
      money.set(cost.currency, series);
    }
  }
  return { days, tokens, money, prompt };
}

/** The series name that gathers the smaller routes when there are too many to tell apart. */
export const OTHER_ROUTES = 'other routes';

/**
 * The `keep - 1` largest series by total, largest first, and the rest summed as "other routes"
 * (a chart has so many colours that read apart). With `keep` or fewer, all of them.
 */
export function largestSeries(series: DailySeries, keep: number): DailySeries {
  const total = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0);
  const ranked = [...series].sort(([a, x], [b, y]) => total(y) - total(x) || a.localeCompare(b));
  if (ranked.length <= keep) return new Map(ranked);
  const kept = ranked.slice(0, keep - 1);
  const rest = ranked.slice(keep - 1);
  const other = rest[0]![1].map((_, index) => total(rest.map(([, values]) => values[index]!)));
  return new Map([...kept, [OTHER_ROUTES, other]]);
}
