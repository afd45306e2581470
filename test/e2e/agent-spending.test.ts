/**
 * What the agent may spend, through the built CLI with a SQLite journal: a delivery whose
 * attempts together pass `agent.max_tokens_per_delivery` fails without another retry, with every
 * attempt's tokens journaled, and `agent.prices` turns those tokens into money that `deliveries
 * list` and `show` report. The model is a fake chat-completions server that reports usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answer,
  callTools,
  failure,
  startFakeOpenAI,
  type FakeOpenAI,
} from '../../packages/agent/src/test-support/fake-openai.js';
import { cleanupHomes, runCli, startGateway, type StartedGateway } from '../support/gateway.js';
import { finishedRow, listDeliveries, showDelivery } from '../support/journal-read.js';
import { fixture, sendForge } from '../support/requests.js';

const SECRET = 'spending-secret-0123456789abcdef';
const LIMIT = 1000;
const PRICES = { prompt_per_1k: 0.003, completion_per_1k: 0.015, currency: 'USD' };

let chat: FakeOpenAI;
let gateway: StartedGateway;

beforeAll(async () => {
  chat = await startFakeOpenAI();
  gateway = await startGateway({
    config: {
      agent: { runner: 'openai', base_url: chat.baseUrl, model: 'budget-model', max_turns: 6 },
      platforms: {
        webhook: {
          extra: {
            secret: SECRET,
            max_attempts: 5,
            retry_backoff_ms: 20,
            routes: {
              reviews: {
                events: ['pull_request'],
                agent: { max_tokens_per_delivery: LIMIT, prices: PRICES },
                deliver: 'log',
              },
            },
          },
        },
      },
    },
  });
});

afterAll(async () => {
  await gateway?.stop();
  await chat?.close();
  cleanupHomes();
});

const usage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

const echo = { arguments: { command: 'echo reading the diff' } };

async function sendPullRequest(deliveryId: string): Promise<void> {
  const sent = await sendForge(gateway.url, 'reviews', {
    body: fixture('forge/pull_request_opened.json'),
    secret: SECRET,
    event: 'pull_request',
    deliveryId,
  });
  expect(sent.status).toBe(202);
}

describe('agent.max_tokens_per_delivery', () => {
  it('adds up the tokens of every attempt and fails the delivery, unretried, once they pass it', async () => {
    chat.script(
      // attempt 1: 350 tokens, then the upstream refuses the next turn (a retried failure)
      callTools([echo], usage(300, 50)),
      failure(400, 'the model is overloaded'),
      // attempt 2: 350 tokens (700 in all), then 400 more: 1100, past the limit of 1000
      callTools([echo], usage(300, 50)),
      callTools([echo], usage(350, 50)),
    );
    await sendPullRequest('spend-over-budget');
    const row = await finishedRow(gateway.home, 'spend-over-budget');
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(2);
    expect(row.lastError).toBe(
      `token budget of ${LIMIT} exceeded: 1100 tokens spent over 2 attempts (agent.max_tokens_per_delivery)`,
    );
    expect(row.attemptLog.map((attempt) => attempt.error)).toEqual([
      expect.stringContaining('answered 400: the model is overloaded'),
      row.lastError,
    ]);
    expect(row.agent).toMatchObject({
      runner: 'openai',
      model: 'budget-model',
      // three answered model turns; the refused request was none
      turns: 3,
      usage: { promptTokens: 950, completionTokens: 150, totalTokens: 1100 },
      // 950 prompt tokens at 0.003 and 150 completion tokens at 0.015 per 1k
      cost: { amount: 0.0051, currency: 'USD' },
    });
    // the turn that passed the limit asked for a command too: it was not run
    expect(row.agent?.toolCalls).toHaveLength(2);
    // no third attempt asked the model anything
    expect(chat.requests).toHaveLength(4);
  });

  it('prices a delivery within the budget, as list and show report it', async () => {
    chat.script(answer('Looks fine.', usage(200, 40)));
    await sendPullRequest('spend-priced');
    const row = await finishedRow(gateway.home, 'spend-priced');
    expect(row.status).toBe('delivered');
    expect(row.agent?.cost).toEqual({ amount: 0.0012, currency: 'USD' });

    const listed = await listDeliveries(gateway.home);
    expect(listed.find((r) => r.deliveryId === 'spend-priced')).toMatchObject({
      tokens: 240,
      cost: { amount: 0.0012, currency: 'USD' },
    });
    expect(listed.find((r) => r.deliveryId === 'spend-over-budget')).toMatchObject({
      status: 'failed',
      attempts: 2,
      tokens: 1100,
      cost: { amount: 0.0051, currency: 'USD' },
    });
    const shown = await showDelivery(gateway.home, row.id);
    expect(shown.agent).toMatchObject({ cost: { amount: 0.0012, currency: 'USD' } });

    const table = await runCli(['deliveries', 'list', '--home', gateway.home]);
    expect(table.code).toBe(0);
    const [header, ...lines] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/TOKENS +COST$/);
    expect(lines.find((line) => line.includes('spend-priced'))).toMatch(/240 +0\.0012 USD$/);
    const detail = await runCli(['deliveries', 'show', row.id, '--home', gateway.home]);
    expect(detail.stdout).toMatch(/ cost +0\.0012 USD\n/);
  });
});
