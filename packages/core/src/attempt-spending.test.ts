import { describe, expect, it } from 'vitest';
import { attemptDelivery } from './attempt.js';
import { parseConfig } from './config/load.js';
import { corePlugin } from './core-plugin.js';
import { createHooks, type AttemptEvent, type RunRequest, type RunResult } from './hooks.js';
import { silentLogger } from './logger.js';
import { MemoryStore } from './memory-store.js';
import { acceptOne, attemptDeps } from './test-support/attempt-deps.js';

const usage = (promptTokens: number, completionTokens: number) => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
});

/** One gateway's attempt machinery with a `dry-run` runner played by `run`. */
async function setup(
  run: (request: RunRequest, attempt: number) => Promise<RunResult>,
  route: Record<string, unknown> = {},
) {
  const config = parseConfig({
    platforms: {
      webhook: {
        extra: {
          host: '127.0.0.1',
          retry_backoff_ms: 5,
          routes: { review: { secret: 's', ...route } },
        },
      },
    },
  });
  const hooks = createHooks();
  void corePlugin.setup(
    {
      hooks,
      log: silentLogger(),
      config,
      home: '/tmp',
      serving: true,
      settings: () => ({}),
      currentConfig: (): never => {
        throw new Error('not read in this test');
      },
      settingsOf: () => {
        throw new Error('core has no dependencies');
      },
    },
    undefined,
  );
  let runs = 0;
  hooks.run.for('dry-run').tapPromise('test', (request) => run(request, ++runs));
  const events: AttemptEvent[] = [];
  hooks.attemptFinished.tap('test', (event) => void events.push(event));
  const store = new MemoryStore();
  const deps = attemptDeps(store, hooks, config);
  const id = await acceptOne(store, 'review');
  const attempt = (interrupt = new AbortController().signal) =>
    attemptDelivery(deps, id, interrupt);
  return { store, events, attempt, id };
}

describe('what an attempt spends', () => {
  it('adds the tokens of a run that failed to those of the retry that answered', async () => {
    const { store, events, attempt, id } = await setup(async (request, n) => {
      if (n === 1) {
        request.reportAccounting({ runner: 'openai', model: 'm', turns: 1, usage: usage(100, 20) });
        throw new Error('upstream answered 502');
      }
      return {
        answer: 'ok',
        accounting: { runner: 'openai', model: 'm', turns: 1, usage: usage(50, 10) },
      };
    });
    expect((await attempt()).status).toBe('retry');
    expect((await store.get(id))?.agent?.usage).toEqual(usage(100, 20));
    expect((await attempt()).status).toBe('delivered');
    const row = await store.get(id);
    expect(row?.attempts).toBe(2);
    expect(row?.agent).toEqual({ runner: 'openai', model: 'm', turns: 2, usage: usage(150, 30) });
    // Each attempt reports only its own run, so counters add nothing twice.
    expect(events.map((event) => event.spent?.usage)).toEqual([usage(100, 20), usage(50, 10)]);
    expect(events[1]?.record.agent?.usage).toEqual(usage(150, 30));
  });

  it('hands the runner the row with what earlier attempts spent', async () => {
    const seen: (number | undefined)[] = [];
    const { attempt } = await setup(async (request, n) => {
      seen.push(request.delivery.agent?.usage?.totalTokens);
      request.reportAccounting({ runner: 'openai', usage: usage(7, 3) });
      if (n < 3) throw new Error('try again');
      return { answer: 'done' };
    });
    await attempt();
    await attempt();
    expect((await attempt()).status).toBe('delivered');
    expect(seen).toEqual([undefined, 10, 20]);
  });

  it('ends the delivery at once on a runner error that is not retryable, keeping its tokens', async () => {
    const { store, attempt, id } = await setup(async (request) => {
      request.reportAccounting({ runner: 'openai', usage: usage(900, 200) });
      throw Object.assign(new Error('token budget of 1000 exceeded'), { retryable: false });
    });
    const outcome = await attempt();
    expect(outcome).toMatchObject({ status: 'failed', error: 'token budget of 1000 exceeded' });
    const row = await store.get(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.agent?.usage?.totalTokens).toBe(1100);
  });

  it('keeps the tokens of a run cut short by agent.timeout_s', async () => {
    const { store, events, attempt, id } = await setup(
      (request) => {
        request.reportAccounting({ runner: 'openai', usage: usage(60, 6) });
        return new Promise<RunResult>(() => undefined);
      },
      { agent: { timeout_s: 0.05 } },
    );
    expect(await attempt()).toMatchObject({
      status: 'retry',
      error: 'agent run (dry-run) timed out after 0.05 s',
    });
    expect((await store.get(id))?.agent?.usage).toEqual(usage(60, 6));
    expect(events[0]?.spent?.usage).toEqual(usage(60, 6));
  });

  it('keeps the tokens of a run the gateway stopped, leaving the row to run again', async () => {
    const stop = new AbortController();
    const { store, attempt, id } = await setup(async (request) => {
      request.reportAccounting({ runner: 'openai', usage: usage(8, 2) });
      stop.abort();
      throw new Error('stopped');
    });
    expect((await attempt(stop.signal)).status).toBe('interrupted');
    expect(await store.get(id)).toMatchObject({ status: 'running', agent: { usage: usage(8, 2) } });
  });

  it('spends nothing in an attempt that reuses the answer an earlier one kept', async () => {
    const { store, events, attempt, id } = await setup(async () => ({
      answer: 'kept',
      accounting: { runner: 'openai', usage: usage(5, 5) },
    }));
    await store.saveProgress(id, { answer: 'kept already' });
    expect((await attempt()).status).toBe('delivered');
    expect(events[0]?.spent).toBeUndefined();
    expect((await store.get(id))?.agent).toBeNull();
  });
});
