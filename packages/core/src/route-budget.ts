/**
 * A route's daily budget (`budget: { tokens_per_day, runs_per_day }`): what the route's agent ran
 * and spent since 00:00 UTC, counted from the journal (shared by every worker of a shared store),
 * and the refusal once either limit is reached.
 */
import type { RouteConfig } from './config/schema.js';
import type { DeliveryRecord } from './delivery.js';
import type { AdmitRefusal } from './hooks.js';
import type { Store } from './store.js';

const DAY_MS = 86_400_000;

/** How many journal rows of a route one check reads at most (newest first). */
const BUDGET_SCAN_LIMIT = 10_000;

/** 00:00 UTC of the day `now` is in. */
export function utcDayStart(now: number): number {
  return now - (now % DAY_MS);
}

/** The agent runs of a route today and the tokens they spent. */
export interface DaySpending {
  runs: number;
  tokens: number;
}

/** Adds up the rows whose agent ran since `since` (a refused or never-run row has no accounting). */
export function spendingSince(
  rows: readonly DeliveryRecord[],
  since: number,
  exceptId: string,
): DaySpending {
  let runs = 0;
  let tokens = 0;
  for (const row of rows) {
    if (row.id === exceptId || row.agent === null) continue;
    if ((row.startedAt ?? row.receivedAt) < since) continue;
    runs++;
    tokens += row.agent.usage?.totalTokens ?? 0;
  }
  return { runs, tokens };
}

/** `over_budget` when the route has spent its runs or tokens of the UTC day, else undefined. */
export async function budgetRefusal(
  store: Pick<Store, 'list'>,
  delivery: DeliveryRecord,
  budget: RouteConfig['budget'],
  now: number,
): Promise<AdmitRefusal | undefined> {
  if (!budget) return undefined;
  const rows = await store.list({ route: delivery.route, limit: BUDGET_SCAN_LIMIT });
  const spent = spendingSince(rows, utcDayStart(now), delivery.id);
  if (budget.runs_per_day !== undefined && spent.runs >= budget.runs_per_day) {
    return {
      status: 'over_budget',
      reason: `budget: route "${delivery.route}" ran its agent ${spent.runs} times today (UTC), its limit (budget.runs_per_day: ${budget.runs_per_day})`,
    };
  }
  if (budget.tokens_per_day !== undefined && spent.tokens >= budget.tokens_per_day) {
    return {
      status: 'over_budget',
      reason: `budget: route "${delivery.route}" spent ${spent.tokens} tokens today (UTC), its limit is ${budget.tokens_per_day} (budget.tokens_per_day)`,
    };
  }
  return undefined;
}
