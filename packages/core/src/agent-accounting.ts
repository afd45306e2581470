/**
 * A delivery's agent accounting across its attempts: each attempt that runs the agent adds its
 * run to what the journal row already holds, so retries never hide what earlier runs spent.
 */
import type { AgentAccounting, AgentCost, TokenUsage } from './delivery.js';

function addUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage | undefined {
  if (!a || !b) return a ?? b;
  // A side without cached tokens (an older row, a runner that does not say) adds 0.
  const counted = a.cachedPromptTokens !== undefined || b.cachedPromptTokens !== undefined;
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    ...(counted
      ? { cachedPromptTokens: (a.cachedPromptTokens ?? 0) + (b.cachedPromptTokens ?? 0) }
      : {}),
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

/**
 * Costs in one currency add up. A reload that changed `agent.prices.currency` between attempts
 * leaves amounts that cannot be added: the newer run's cost is kept, as the prices now in force.
 */
function addCost(a: AgentCost | undefined, b: AgentCost | undefined): AgentCost | undefined {
  if (!a || !b) return a ?? b;
  if (a.currency !== b.currency) return b;
  // Rounded to millionths: sums of float prices otherwise show noise such as 0.30000000000000004.
  return { amount: Math.round((a.amount + b.amount) * 1e6) / 1e6, currency: b.currency };
}

/**
 * The delivery's total after one more run: tokens, cost and turns summed, tool calls in order,
 * the runner and model of the newest run.
 *
 * @example addAccounting(row.agent, { runner: 'openai', usage: { promptTokens: 10, … } })
 */
export function addAccounting(
  earlier: AgentAccounting | null,
  run: AgentAccounting,
): AgentAccounting {
  if (!earlier) return run;
  const usage = addUsage(earlier.usage, run.usage);
  const cost = addCost(earlier.cost, run.cost);
  const turns =
    earlier.turns === undefined && run.turns === undefined
      ? undefined
      : (earlier.turns ?? 0) + (run.turns ?? 0);
  const toolCalls =
    earlier.toolCalls === undefined && run.toolCalls === undefined
      ? undefined
      : [...(earlier.toolCalls ?? []), ...(run.toolCalls ?? [])];
  const model = run.model ?? earlier.model;
  return {
    runner: run.runner,
    ...(model !== undefined ? { model } : {}),
    ...(turns !== undefined ? { turns } : {}),
    ...(toolCalls !== undefined ? { toolCalls } : {}),
    ...(usage ? { usage } : {}),
    ...(cost ? { cost } : {}),
  };
}
