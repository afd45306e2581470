/**
 * What one delivery's agent may spend (`agent.max_tokens_per_delivery`) and what its tokens cost
 * (`agent.prices`). A runner that counts tokens checks the budget after each model turn.
 */
import {
  promptTokenSplit,
  runLimitError,
  type AgentCost,
  type DeliveryRecord,
  type TokenUsage,
} from '@webhook-gateway/core';
import { z } from 'zod';

/**
 * `agent.prices`: money per 1,000 prompt and completion tokens, as the model's provider bills;
 * prompt tokens served from its prompt cache at `cached_prompt_per_1k` (default: `prompt_per_1k`).
 */
export const pricesSchema = z.strictObject({
  prompt_per_1k: z.number().nonnegative(),
  cached_prompt_per_1k: z.number().nonnegative().optional(),
  completion_per_1k: z.number().nonnegative(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as USD or EUR')
    .default('USD'),
});

export type Prices = z.output<typeof pricesSchema>;

/**
 * What `usage` costs at `prices`, rounded to millionths of the currency: uncached prompt tokens
 * at `prompt_per_1k`, cached ones at `cached_prompt_per_1k`, completion tokens at theirs.
 *
 * @example costOf({ promptTokens: 2000, cachedPromptTokens: 1536, completionTokens: 100, totalTokens: 2100 }, { prompt_per_1k: 0.002, cached_prompt_per_1k: 0.0005, completion_per_1k: 0.008, currency: 'USD' })
 * // { amount: 0.002496, currency: 'USD' }
 */
export function costOf(usage: TokenUsage, prices: Prices): AgentCost {
  const prompt = promptTokenSplit(usage);
  const amount =
    (prompt.uncached / 1000) * prices.prompt_per_1k +
    (prompt.cached / 1000) * (prices.cached_prompt_per_1k ?? prices.prompt_per_1k) +
    (usage.completionTokens / 1000) * prices.completion_per_1k;
  return { amount: Math.round(amount * 1e6) / 1e6, currency: prices.currency };
}

/** The tokens earlier attempts of this delivery spent, as the journal row has them. */
export function tokensSpentBefore(delivery: DeliveryRecord): number {
  return delivery.agent?.usage?.totalTokens ?? 0;
}

/**
 * The error that ends a delivery whose tokens, over all its attempts, passed the limit (a run
 * limit's: with `agent.on_limit: partial`, what the run produced is delivered). Not retryable:
 * another attempt would spend more.
 */
export function tokenBudgetExceeded(limit: number, spent: number, attempts: number): Error {
  return runLimitError(
    'tokens',
    limit,
    `token budget of ${limit} exceeded: ${spent} tokens spent over ${attempts} attempt${attempts === 1 ? '' : 's'} (agent.max_tokens_per_delivery)`,
    { retryable: false },
  );
}
