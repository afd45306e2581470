import { describe, expect, it } from 'vitest';
import { addAccounting } from './agent-accounting.js';

const usage = (promptTokens: number, completionTokens: number) => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
});

describe('addAccounting', () => {
  it('is the run itself when no earlier attempt ran the agent', () => {
    const run = { runner: 'openai', model: 'm', usage: usage(10, 5) };
    expect(addAccounting(null, run)).toEqual(run);
  });

  it('sums tokens, cost and turns and keeps every tool call in order', () => {
    const earlier = {
      runner: 'openai',
      model: 'm',
      turns: 2,
      toolCalls: [{ tool: 'terminal', command: 'git log', exitCode: 0, durationMs: 3 }],
      usage: usage(400, 100),
      cost: { amount: 0.1, currency: 'USD' },
    };
    const run = {
      runner: 'openai',
      model: 'm2',
      turns: 1,
      toolCalls: [{ tool: 'terminal', command: 'gh pr diff 1', exitCode: 0, durationMs: 4 }],
      usage: usage(300, 50),
      cost: { amount: 0.2, currency: 'USD' },
    };
    expect(addAccounting(earlier, run)).toEqual({
      runner: 'openai',
      model: 'm2',
      turns: 3,
      toolCalls: [...earlier.toolCalls, ...run.toolCalls],
      usage: usage(700, 150),
      cost: { amount: 0.3, currency: 'USD' },
    });
  });

  it('sums cached prompt tokens, an attempt that did not count them adding 0', () => {
    const cached = (promptTokens: number, cachedPromptTokens: number) => ({
      ...usage(promptTokens, 10),
      cachedPromptTokens,
    });
    const first = { runner: 'openai', usage: cached(1200, 0) };
    const second = { runner: 'openai', usage: cached(1300, 1024) };
    expect(addAccounting(first, second).usage).toEqual({
      ...usage(2500, 20),
      cachedPromptTokens: 1024,
    });
    // A row journaled before cached tokens were counted, then a run that counts them.
    const older = { runner: 'openai', usage: usage(900, 10) };
    expect(addAccounting(older, second).usage).toEqual({
      ...usage(2200, 20),
      cachedPromptTokens: 1024,
    });
    // Neither counted them: the sum does not claim 0 were cached.
    expect(addAccounting(older, older).usage).toEqual(usage(1800, 20));
  });

  it('keeps what earlier attempts spent when the new run reports no tokens', () => {
    const earlier = { runner: 'openai', model: 'm', usage: usage(40, 2) };
    expect(addAccounting(earlier, { runner: 'command' })).toEqual({
      runner: 'command',
      model: 'm',
      usage: usage(40, 2),
    });
  });

  it('keeps the newer cost when the currency changed between attempts', () => {
    const earlier = { runner: 'openai', cost: { amount: 1, currency: 'USD' } };
    const run = { runner: 'openai', cost: { amount: 2, currency: 'EUR' } };
    expect(addAccounting(earlier, run).cost).toEqual({ amount: 2, currency: 'EUR' });
  });
});
