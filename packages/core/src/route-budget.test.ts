/** Route budgets inside a whole gateway: the journal counts, the worker refuses, replay runs later. */
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from './config/load.js';
import type { DeliveryRecord } from './delivery.js';
import { createGateway, type Gateway } from './gateway.js';
import { silentLogger } from './logger.js';
import { MemoryStore } from './memory-store.js';
import { definePlugin } from './plugin.js';
import { spendingSince, utcDayStart } from './route-budget.js';
import { waitFor } from './testing/wait-for.js';

/** A runner that reports 100 tokens per run, as a chat-completions server's usage would. */
let runs = 0;
const meteredRunner = definePlugin({
  name: 'test-metered-runner',
  setup({ hooks }) {
    hooks.run.for('metered').tapPromise('test-metered-runner', async () => {
      runs++;
      return {
        answer: 'ok',
        accounting: {
          runner: 'metered',
          usage: { promptTokens: 80, completionTokens: 20, totalTokens: 100 },
        },
      };
    });
  },
});

let gateway: Gateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  runs = 0;
});

async function start(budget: Record<string, number>, store: MemoryStore): Promise<string> {
  const config = parseConfig(
    {
      agent: { runner: 'metered' },
      platforms: {
        webhook: {
          extra: {
            host: '127.0.0.1',
            port: 0,
            routes: { review: { secret: 'INSECURE_NO_AUTH', budget } },
          },
        },
      },
    },
    {},
    [meteredRunner],
  );
  gateway = await createGateway({
    config,
    home: '/nonexistent-home',
    store,
    log: silentLogger(),
    plugins: [{ plugin: meteredRunner, options: undefined }],
  });
  const { port } = await gateway.start();
  return `http://127.0.0.1:${port}/webhooks/review`;
}

let sent = 0;
/** Posts one delivery and waits for its row to finish. */
async function deliver(url: string, store: MemoryStore): Promise<DeliveryRecord> {
  const id = `budget-${++sent}`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forge-delivery': id },
    body: JSON.stringify({ action: 'opened', number: sent }),
  });
  expect(response.status).toBe(202);
  return waitFor(async () => {
    const [row] = (await store.list({})).filter((r) => r.deliveryId === id);
    return row && row.status !== 'queued' && row.status !== 'running' && row;
  }, `${id} to finish`);
}

describe('route budgets', () => {
  it('refuses runs past runs_per_day as over_budget, never running the agent', async () => {
    const store = new MemoryStore();
    const url = await start({ runs_per_day: 2 }, store);
    expect((await deliver(url, store)).status).toBe('delivered');
    expect((await deliver(url, store)).status).toBe('delivered');
    const third = await deliver(url, store);
    expect(third).toMatchObject({ status: 'over_budget', agent: null });
    expect(third.lastError).toBe(
      'budget: route "review" ran its agent 2 times today (UTC), its limit (budget.runs_per_day: 2)',
    );
    expect(runs).toBe(2);
  });

  it('refuses once the tokens of the day reach tokens_per_day', async () => {
    const store = new MemoryStore();
    const url = await start({ tokens_per_day: 150 }, store);
    expect((await deliver(url, store)).status).toBe('delivered');
    expect((await deliver(url, store)).status).toBe('delivered');
    const refused = await deliver(url, store);
    expect(refused.status).toBe('over_budget');
    expect(refused.lastError).toContain('spent 200 tokens today (UTC), its limit is 150');
    expect(runs).toBe(2);
  });
});

describe('spendingSince', () => {
  it('counts only rows whose agent ran since the day started', () => {
    const day = utcDayStart(Date.UTC(2026, 0, 2, 15));
    expect(day).toBe(Date.UTC(2026, 0, 2));
    const row = (over: Partial<DeliveryRecord>) =>
      ({ id: 'x', receivedAt: day, startedAt: day, agent: null, ...over }) as DeliveryRecord;
    const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 40 };
    expect(
      spendingSince(
        [
          row({ id: 'a', agent: { runner: 'r', usage } }),
          row({ id: 'b', agent: { runner: 'r', usage }, startedAt: day - 1 }),
          row({ id: 'c' }),
          row({ id: 'self', agent: { runner: 'r', usage } }),
        ],
        day,
        'self',
      ),
    ).toEqual({ runs: 1, tokens: 40 });
  });
});
