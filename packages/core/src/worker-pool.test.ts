import { afterEach, describe, expect, it } from 'vitest';
import { createAttempt } from './attempt.js';
import { parseConfig } from './config/load.js';
import { corePlugin } from './core-plugin.js';
import type { NewDelivery } from './delivery.js';
import { createHooks, type GatewayHooks } from './hooks.js';
import { silentLogger } from './logger.js';
import { MemoryStore } from './memory-store.js';
import { queueLimits } from './queue.js';
import { attemptDeps } from './test-support/attempt-deps.js';
import { waitFor } from './testing/wait-for.js';
import { WorkerPool, type WorkerPoolOptions } from './worker-pool.js';

const pools: WorkerPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.stop(1000);
});

function setup(
  extra: Record<string, unknown>,
  run: (deliveryId: string) => Promise<string>,
  poolOptions: Pick<WorkerPoolOptions, 'maxHeld' | 'intake' | 'pollIntervalMs' | 'paused'> = {},
  store: MemoryStore = new MemoryStore(),
) {
  const config = parseConfig({
    platforms: { webhook: { extra: { retry_backoff_ms: 5, ...extra } } },
  });
  const hooks: GatewayHooks = createHooks();
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
  hooks.run.for('dry-run').tapPromise('test', async (request) => ({
    answer: await run(request.delivery.deliveryId),
  }));
  const attempt = createAttempt(attemptDeps(store, hooks, config));
  const pool = new WorkerPool({
    store,
    attempt,
    limits: () => queueLimits(config),
    log: silentLogger(),
    ...poolOptions,
  });
  pools.push(pool);
  /** Journals a delivery and hands it to the pool, as the receiver does. */
  const submit = async (newDelivery: NewDelivery): Promise<void> => {
    const result = await store.accept(newDelivery, 3_600_000);
    if (result.accepted) pool.enqueue(result.record);
  };
  return { store, pool, submit };
}

function delivery(route: string, deliveryId: string, orderKey: string | null = null): NewDelivery {
  return {
    route,
    event: 'pull_request',
    action: 'opened',
    deliveryId,
    receivedAt: Date.now(),
    payload: {},
    headers: {},
    orderKey,
    maxAttempts: 3,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WorkerPool', () => {
  it('runs deliveries about one pull request one at a time, in order of arrival', async () => {
    const events: string[] = [];
    const { store, pool, submit } = setup(
      { concurrency: 4, routes: { r: { secret: 's' } } },
      async (id) => {
        events.push(`start ${id}`);
        await sleep(20);
        events.push(`end ${id}`);
        return 'ok';
      },
    );
    await pool.start();
    for (const id of ['a1', 'a2', 'a3']) {
      await submit(delivery('r', id, 'r|o/r|1'));
    }
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length === 3,
      '3 delivered',
    );
    expect(events).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
  });

  it('starts nothing of a paused route while others run, then its queue in order once resumed', async () => {
    const paused = new Set(['r']);
    const started: string[] = [];
    const { store, pool, submit } = setup(
      { concurrency: 4, routes: { r: { secret: 's' }, other: { secret: 's' } } },
      async (id) => {
        started.push(id);
        return 'ok';
      },
      { paused: (route) => paused.has(route) },
    );
    await pool.start();
    await submit(delivery('r', 'r1', 'r|o/r|1'));
    await submit(delivery('r', 'r2', null));
    await submit(delivery('r', 'r3', 'r|o/r|1'));
    await submit(delivery('other', 'o1'));
    await waitFor(async () => (await store.list({ status: 'delivered' })).length === 1, 'o1');
    expect(started).toEqual(['o1']);
    expect((await store.list({ route: 'r', status: 'queued' })).length).toBe(3);

    paused.delete('r');
    pool.resumed();
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length === 4,
      '4 delivered',
    );
    expect(started).toEqual(['o1', 'r1', 'r2', 'r3']);
  });

  it('runs different pull requests in parallel up to the global limit', async () => {
    let running = 0;
    let peak = 0;
    const { store, pool, submit } = setup(
      { concurrency: 2, routes: { r: { secret: 's' } } },
      async () => {
        running++;
        peak = Math.max(peak, running);
        await sleep(30);
        running--;
        return 'ok';
      },
    );
    await pool.start();
    for (let i = 0; i < 6; i++) {
      await submit(delivery('r', `p${i}`, `r|o/r|${i}`));
    }
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length === 6,
      '6 delivered',
    );
    expect(peak).toBe(2);
  });

  it('holds a route to its own concurrency', async () => {
    let running = 0;
    let peak = 0;
    const { store, pool, submit } = setup(
      { concurrency: 4, routes: { narrow: { secret: 's', concurrency: 1 } } },
      async () => {
        running++;
        peak = Math.max(peak, running);
        await sleep(20);
        running--;
        return 'ok';
      },
    );
    await pool.start();
    for (let i = 0; i < 4; i++) {
      await submit(delivery('narrow', `n${i}`));
    }
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length === 4,
      '4 delivered',
    );
    expect(peak).toBe(1);
  });

  it('retries a failing run, then records the failure and releases the delivery id', async () => {
    let calls = 0;
    const { store, pool, submit } = setup({ routes: { r: { secret: 's' } } }, async () => {
      calls++;
      throw new Error(`boom ${calls}`);
    });
    await pool.start();
    await submit(delivery('r', 'f1'));
    await waitFor(async () => (await store.list({ status: 'failed' })).length === 1, '1 failed');
    const [failed] = await store.list({ status: 'failed' });
    expect(calls).toBe(3);
    expect(failed?.attempts).toBe(3);
    expect(failed?.lastError).toBe('boom 3');
    expect(failed?.attemptLog.map((a) => a.error)).toEqual(['boom 1', 'boom 2', 'boom 3']);
    expect((await store.accept(delivery('r', 'f1'), 3_600_000)).accepted).toBe(true);
  });

  it('picks up a delivery queued again by another process (replay)', async () => {
    let calls = 0;
    const { store, pool, submit } = setup({ routes: { r: { secret: 's' } } }, async () => {
      calls++;
      return 'ok';
    });
    await pool.start();
    await submit(delivery('r', 'rp'));
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length === 1,
      '1 delivered',
    );
    await store.replay('rp', Date.now()); // as the CLI does, without telling the pool
    await waitFor(
      async () => calls === 2 && (await store.list({ status: 'delivered' })).length === 1,
      'the replay delivered',
    );
  });

  it('holds at most maxHeld deliveries; the rest wait in the journal and run in order', async () => {
    const started: string[] = [];
    let release = (): void => undefined;
    const { store, pool, submit } = setup(
      { concurrency: 1, routes: { r: { secret: 's' } } },
      async (id) => {
        started.push(id);
        // The first run waits until everything is accepted, so the backlog piles up.
        if (id === 'd0') await new Promise<void>((resolve) => (release = resolve));
        return 'ok';
      },
      { maxHeld: 3, pollIntervalMs: 50 },
    );
    await pool.start();
    const ids = Array.from({ length: 12 }, (_, i) => `d${i}`);
    let mostHeld = 0;
    for (const id of ids) {
      await submit(delivery('r', id));
      mostHeld = Math.max(mostHeld, pool.queuedCount);
      await sleep(1);
    }
    expect(mostHeld).toBeLessThanOrEqual(3);
    release();
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length === ids.length,
      'every delivery delivered',
    );
    expect(started).toEqual(ids);
  });

  it('starts one run at a time while intake saturates the process, then all it may', async () => {
    let saturated = true;
    let accepts = 0;
    let running = 0;
    let mostRunning = 0;
    const { store, pool, submit } = setup(
      { concurrency: 4, routes: { r: { secret: 's' } } },
      async () => {
        running++;
        mostRunning = Math.max(mostRunning, running);
        await sleep(30);
        running--;
        return 'ok';
      },
      {
        intake: {
          get active() {
            return saturated;
          },
          noteAccept: () => accepts++,
          start: () => undefined,
          stop: () => undefined,
        },
      },
    );
    await pool.start();
    for (let i = 0; i < 12; i++) {
      await submit(delivery('r', `s${i}`));
    }
    // Two finished while saturated: the second started after the first, never beside it.
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length >= 2,
      'at least 2 delivered',
    );
    expect(accepts).toBe(12);
    expect(mostRunning).toBe(1);
    saturated = false;
    pool.wake();
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length === 12,
      '12 delivered',
    );
    expect(mostRunning).toBe(4);
  });

  it('keeps a pull request in order when its deliveries wait in the journal past maxHeld', async () => {
    /** A journal whose reads take a while, so deliveries arrive while the pool reads it. */
    class SlowReadStore extends MemoryStore {
      override async queued(afterSeq: number, limit: number) {
        await sleep(40);
        return super.queued(afterSeq, limit);
      }
    }
    const started: string[] = [];
    let release = (): void => undefined;
    const { store, pool, submit } = setup(
      { concurrency: 1, routes: { r: { secret: 's' } } },
      async (id) => {
        started.push(id);
        if (id === 'p1') await new Promise<void>((resolve) => (release = resolve));
        return 'ok';
      },
      { maxHeld: 2, pollIntervalMs: 60_000 },
      new SlowReadStore(),
    );
    await pool.start();
    const accept = async (id: string) => {
      await submit(delivery('r', id, 'r|o/r|7'));
    };
    // p1 runs and blocks; p2 and p3 fill the pool; p4 waits in the journal.
    await accept('p1');
    await waitFor(() => started.includes('p1'), 'p1 to start');
    for (const id of ['p2', 'p3', 'p4']) await accept(id);
    release();
    // The pool makes room and starts reading p4 back; p5 arrives meanwhile.
    await sleep(10);
    await accept('p5');
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length === 5,
      '5 delivered',
    );
    expect(started).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
  });
});
