import { describe, expect, it } from 'vitest';
import { agentAccountingSchema } from './delivery-schema.js';

describe('agentAccountingSchema', () => {
  it('keeps the cached prompt tokens of a row', () => {
    const agent = {
      runner: 'openai',
      usage: {
        promptTokens: 2000,
        cachedPromptTokens: 1536,
        completionTokens: 90,
        totalTokens: 2090,
      },
    };
    expect(agentAccountingSchema.parse(agent)).toEqual(agent);
  });

  it('reads a row written before cached prompt tokens were counted', () => {
    const agent = {
      runner: 'openai',
      usage: { promptTokens: 2000, completionTokens: 90, totalTokens: 2090 },
    };
    expect(agentAccountingSchema.parse(agent)).toEqual(agent);
  });

  it('refuses cached prompt tokens that are not a number', () => {
    const usage = {
      promptTokens: 1,
      cachedPromptTokens: 'all',
      completionTokens: 1,
      totalTokens: 2,
    };
    expect(agentAccountingSchema.safeParse({ runner: 'openai', usage }).success).toBe(false);
  });
});
