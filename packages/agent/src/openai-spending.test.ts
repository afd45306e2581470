import type { AgentAccounting } from '@webhook-gateway/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runOpenAI } from './openai-runner.js';
import { answer, callTools, startFakeOpenAI, type FakeOpenAI } from './test-support/fake-openai.js';
import { agentConfig, deliveryRecord, runRequest } from './test-support/run-request.js';
import { cleanup, tempDir } from './test-support/temp.js';

let fake: FakeOpenAI;
let home: string;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  home = await tempDir();
});

afterEach(async () => {
  await fake.close();
  await cleanup();
});

function agent(extra: Record<string, unknown> = {}) {
  return agentConfig({ runner: 'openai', base_url: fake.baseUrl, model: 'm', ...extra });
}

const usage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

const echo = { arguments: { command: 'echo hi' } };

/** Usage as OpenAI reports it when `cached` of the prompt tokens came from its prompt cache. */
const cachedUsage = (prompt: number, cached: number | null, completion: number) => ({
  ...usage(prompt, completion),
  prompt_tokens_details: { cached_tokens: cached },
});

describe('cached prompt tokens', () => {
  it('reads usage.prompt_tokens_details.cached_tokens of each turn and sums them as a part of the prompt tokens', async () => {
    fake.script(
      callTools([echo], cachedUsage(1200, 0, 40)),
      callTools([echo], cachedUsage(1300, 1152, 30)),
      answer('done', cachedUsage(1400, 1280, 50)),
    );
    const reports: AgentAccounting[] = [];
    const result = await runOpenAI(
      runRequest({ agent: agent(), home, reportAccounting: (spent) => reports.push(spent) }),
    );
    expect(result.accounting?.usage).toEqual({
      promptTokens: 3900,
      cachedPromptTokens: 2432,
      completionTokens: 120,
      totalTokens: 4020,
    });
    // Reported after each turn, so a run that fails part way still journals its cached share.
    expect(reports[0]?.usage?.cachedPromptTokens).toBe(0);
    expect(reports.at(-1)?.usage?.cachedPromptTokens).toBe(2432);
  });

  it('counts none cached when the server does not say (no details, null details, null count)', async () => {
    fake.script(
      callTools([echo], usage(100, 10)),
      callTools([echo], { ...usage(100, 10), prompt_tokens_details: null }),
      answer('done', cachedUsage(100, null, 10)),
    );
    const result = await runOpenAI(runRequest({ agent: agent(), home }));
    expect(result.accounting?.usage).toMatchObject({ promptTokens: 300, cachedPromptTokens: 0 });
  });

  it('holds a cached count past the prompt tokens to them', async () => {
    fake.script(answer('done', cachedUsage(500, 9000, 10)));
    const result = await runOpenAI(runRequest({ agent: agent(), home }));
    expect(result.accounting?.usage).toMatchObject({ promptTokens: 500, cachedPromptTokens: 500 });
  });

  it('fails the turn, naming the field, when the server sends a cached count that is not a number', async () => {
    fake.script(
      answer('done', {
        ...usage(500, 10),
        prompt_tokens_details: { cached_tokens: 'all' as unknown as number },
      }),
    );
    await expect(runOpenAI(runRequest({ agent: agent(), home }))).rejects.toThrow(
      /usage\.prompt_tokens_details\.cached_tokens/,
    );
  });

  it('prices cached prompt tokens at cached_prompt_per_1k and the rest at prompt_per_1k', async () => {
    fake.script(
      callTools([echo], cachedUsage(2000, 0, 100)),
      answer('done', cachedUsage(2000, 1536, 100)),
    );
    const result = await runOpenAI(
      runRequest({
        agent: agent({
          prices: { prompt_per_1k: 0.002, cached_prompt_per_1k: 0.0005, completion_per_1k: 0.008 },
        }),
        home,
      }),
    );
    // 2464 uncached at 0.002, 1536 cached at 0.0005, 200 completion at 0.008 per 1k
    expect(result.accounting?.cost).toEqual({ amount: 0.007296, currency: 'USD' });
  });

  it('prices cached prompt tokens at prompt_per_1k without cached_prompt_per_1k', async () => {
    fake.script(answer('done', cachedUsage(2000, 1536, 100)));
    const result = await runOpenAI(
      runRequest({
        agent: agent({ prices: { prompt_per_1k: 0.002, completion_per_1k: 0.008 } }),
        home,
      }),
    );
    // 2000 prompt at 0.002 and 100 completion at 0.008 per 1k, cached or not
    expect(result.accounting?.cost).toEqual({ amount: 0.0048, currency: 'USD' });
  });

  it('counts cached prompt tokens against max_tokens_per_delivery like any other', async () => {
    fake.script(callTools([echo], cachedUsage(1000, 1000, 10)), answer('never asked for'));
    await expect(
      runOpenAI(runRequest({ agent: agent({ max_tokens_per_delivery: 900 }), home })),
    ).rejects.toThrow('token budget of 900 exceeded: 1010 tokens spent');
  });
});

describe('what an openai run may spend', () => {
  it('reports the final answer of a turn that passes the budget as produced before stopping', async () => {
    fake.script(callTools([echo], usage(300, 50)), answer('All fine.', usage(400, 60)));
    const produced: string[] = [];
    await expect(
      runOpenAI(
        runRequest({
          agent: agent({ max_tokens_per_delivery: 500 }),
          home,
          reportProduced: (output) => produced.push(output.answer),
        }),
      ),
    ).rejects.toMatchObject({ limit: 'tokens' });
    expect(produced.at(-1)).toBe('All fine.');
  });

  it('stops after the model turn that passes max_tokens_per_delivery, reporting what it spent', async () => {
    fake.script(
      callTools([echo], usage(300, 50)),
      callTools([echo], usage(400, 60)),
      answer('never asked for'),
    );
    const reports: AgentAccounting[] = [];
    const run = runOpenAI(
      runRequest({
        agent: agent({ max_tokens_per_delivery: 500 }),
        home,
        reportAccounting: (accounting) => reports.push(accounting),
      }),
    );
    await expect(run).rejects.toThrow(
      'token budget of 500 exceeded: 810 tokens spent over 1 attempt (agent.max_tokens_per_delivery)',
    );
    // A run limit's error: with agent.on_limit: partial, core delivers what the run produced.
    await expect(run).rejects.toMatchObject({ retryable: false, limit: 'tokens', cap: 500 });
    expect(fake.requests).toHaveLength(2);
    expect(reports.at(-1)?.usage).toEqual({
      promptTokens: 700,
      cachedPromptTokens: 0,
      completionTokens: 110,
      totalTokens: 810,
    });
  });

  it('counts what earlier attempts of the delivery spent', async () => {
    fake.script(callTools([echo], usage(100, 10)), answer('never asked for'));
    const delivery = {
      ...deliveryRecord(),
      attempts: 2,
      agent: {
        runner: 'openai',
        usage: { promptTokens: 400, completionTokens: 50, totalTokens: 450 },
      },
    };
    await expect(
      runOpenAI(runRequest({ agent: agent({ max_tokens_per_delivery: 500 }), home, delivery })),
    ).rejects.toThrow('token budget of 500 exceeded: 560 tokens spent over 2 attempts');
    expect(fake.requests).toHaveLength(1);
  });

  it('does not call the model when earlier attempts used the whole budget', async () => {
    const delivery = {
      ...deliveryRecord(),
      attempts: 3,
      agent: {
        runner: 'openai',
        usage: { promptTokens: 500, completionTokens: 0, totalTokens: 500 },
      },
    };
    await expect(
      runOpenAI(runRequest({ agent: agent({ max_tokens_per_delivery: 500 }), home, delivery })),
    ).rejects.toThrow('token budget of 500 exceeded');
    expect(fake.requests).toHaveLength(0);
  });

  it('answers within the budget, and prices its tokens at agent.prices', async () => {
    fake.script(callTools([echo], usage(1000, 200)), answer('done', usage(2000, 300)));
    const result = await runOpenAI(
      runRequest({
        agent: agent({
          max_tokens_per_delivery: 3500,
          prices: { prompt_per_1k: 0.003, completion_per_1k: 0.015, currency: 'EUR' },
        }),
        home,
      }),
    );
    expect(result.answer).toBe('done');
    // 3000 prompt tokens at 0.003 and 500 completion tokens at 0.015 per 1k
    expect(result.accounting?.cost).toEqual({ amount: 0.0165, currency: 'EUR' });
  });

  it('computes no cost without agent.prices', async () => {
    fake.script(answer('done'));
    const result = await runOpenAI(runRequest({ agent: agent(), home }));
    expect(result.accounting?.cost).toBeUndefined();
  });
});

describe('agent.prices and agent.max_tokens_per_delivery in config', () => {
  it('defaults the currency to USD', () => {
    expect(agent({ prices: { prompt_per_1k: 0.1, completion_per_1k: 0.2 } }).prices).toEqual({
      prompt_per_1k: 0.1,
      completion_per_1k: 0.2,
      currency: 'USD',
    });
  });

  it('takes cached_prompt_per_1k, and leaves it out when it is not set', () => {
    expect(
      agent({ prices: { prompt_per_1k: 0.1, cached_prompt_per_1k: 0.025, completion_per_1k: 0.2 } })
        .prices,
    ).toEqual({
      prompt_per_1k: 0.1,
      cached_prompt_per_1k: 0.025,
      completion_per_1k: 0.2,
      currency: 'USD',
    });
    expect(
      agent({ prices: { prompt_per_1k: 0.1, completion_per_1k: 0.2 } }).prices,
    ).not.toHaveProperty('cached_prompt_per_1k');
    expect(() =>
      agent({ prices: { prompt_per_1k: 1, cached_prompt_per_1k: -0.5, completion_per_1k: 2 } }),
    ).toThrow(/agent\.prices\.cached_prompt_per_1k/);
  });

  it('names the key path of a bad value', () => {
    expect(() => agent({ prices: { prompt_per_1k: -1, completion_per_1k: 0.2 } })).toThrow(
      /agent\.prices\.prompt_per_1k/,
    );
    expect(() =>
      agent({ prices: { prompt_per_1k: 1, completion_per_1k: 2, currency: 'dollars' } }),
    ).toThrow(/agent\.prices\.currency/);
    expect(() => agent({ prices: { prompt: 1 } })).toThrow(/agent\.prices/);
    expect(() => agent({ max_tokens_per_delivery: 0 })).toThrow(/agent\.max_tokens_per_delivery/);
  });
});
