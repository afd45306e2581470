/** What an `openai` run did and cost, kept as it goes; core stores it in the journal. */
import type { AgentAccounting, ToolCallRecord } from '@webhook-gateway/core';
import type { TokenUsage } from './chat-schema.js';

/** The accounting of an `openai` run: every field filled in. */
export interface RunAccounting extends AgentAccounting {
  model: string;
  turns: number;
  toolCalls: ToolCallRecord[];
  usage: TokenUsage;
}

/** The accounting of a run that has not called the model yet. */
export function emptyAccounting(model: string): RunAccounting {
  return {
    runner: 'openai',
    model,
    turns: 0,
    toolCalls: [],
    usage: { promptTokens: 0, cachedPromptTokens: 0, completionTokens: 0, totalTokens: 0 },
  };
}

/** Token counts summed over turns. */
export function addUsage(total: TokenUsage, turn: TokenUsage): TokenUsage {
  return {
    promptTokens: total.promptTokens + turn.promptTokens,
    cachedPromptTokens: total.cachedPromptTokens + turn.cachedPromptTokens,
    completionTokens: total.completionTokens + turn.completionTokens,
    totalTokens: total.totalTokens + turn.totalTokens,
  };
}
