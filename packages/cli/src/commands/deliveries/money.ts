/** Money as `deliveries list` and `show` print it: the amount, then its currency. */
import type { AgentCost } from '@webhook-gateway/core';

/** `0.0165 USD`: at most six decimals (the journal keeps millionths), no trailing zeros. */
export function formatCost(cost: AgentCost): string {
  return `${Number(cost.amount.toFixed(6))} ${cost.currency}`;
}
