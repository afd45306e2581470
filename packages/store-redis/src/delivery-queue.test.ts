import { parseConfig, silentLogger, type RunRequest } from '@webhook-gateway/core';
import {
  corePlugin,
  createHooks,
  createRouteResolver,
  createAttempt,
  liveConfig,
  queueLimits,
  type GatewayRole,
} from '@webhook-gateway/core/runtime';
import type { DeliveryQueue } from '@webhook-gateway/core/store-kit';
import { waitFor } from '@webhook-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { RedisStore } from './redis-store.js';
import { LOST_LAST_ATTEMPT_ERROR } from './row-changes.js';
import { HOUR_MS, newDelivery, useRedisStores, useTestRedis } from './test-support/stores.js';

const redis = await useTestRedis();
const { open } = useRedisStores(redis);

const queues: DeliveryQueue[] = [];
afterEach(async () => {
  for (const queue of queues.splice(0)) await queue.stop(1_000);
});

type Run = (request: RunRequest) => Promise<string>;

/** A queue of `role` on `store` whose agent is `run`. */
function queueOn(
  store: RedisStore,
  run: Run,
  extra: Record<string, unknown> = {},
  role: GatewayRole = 'all',
  paused?: (route: string) => boolean,
) {
  const config = parseConfig({
    platforms: {
      webhook: { extra: { retry_backoff_ms: 5, routes: { reviews: { secret: 's' } }, ...extra } },
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
      settingsOf: (): never => {
        throw new Error('core has no dependencies');
      },
    },
    undefined,
  );
  hooks.run.for('dry-run').tapPromise('test', async (request) => ({ answer: await run(request) }));
  const live = liveConfig(config);
  const attempt = createAttempt({
    store,
    hooks,
    config: live,
    resolveRoute: createRouteResolver(live, store),
    home: '/tmp',
    log: silentLogger(),
    random: () => 1,
  });
  const queue = store.createQueue({
    attempt,
    limits: () => queueLimits(config),
    log: silentLogger(),
    role,
    ...(paused ? { paused } : {}),
  });
  queues.push(queue);
  return queue;
}

/** Accepts and enqueues a delivery, the way a receiver does. */
async function receive(store: RedisStore, queue: DeliveryQueue, overrides = {}) {
  const result = await store.accept(newDelivery(overrides), HOUR_MS);
  if (!result.accepted) throw new Error('expected the delivery to be accepted');
  await queue.enqueue(result.record);
  return result.record;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const statusOf = async (store: RedisStore, id: string) => (await store.get(id))?.status;
const fast = { busyDelayMs: 20, sweepIntervalMs: 60_000 };

describe.skipIf(!redis)('RedisDeliveryQueue', () => {
  it('runs an enqueued delivery and records it delivered', async () => {
    const store = await open(fast);
    const queue = queueOn(store, async () => 'LGTM');
    await queue.start();
    const record = await receive(store, queue);
    await waitFor(async () => (await statusOf(store, record.id)) === 'delivered', 'delivered');
    expect(await store.get(record.id)).toMatchObject({ attempts: 1, answer: 'LGTM' });
  });

  it('leaves a paused route’s delivery queued while another route runs, and runs it once resumed', async () => {
    const store = await open(fast);
    const paused = new Set(['reviews']);
    const ran: string[] = [];
    const queue = queueOn(
      store,
      async (request) => {
        ran.push(request.delivery.route);
        return 'ok';
      },
      { routes: { reviews: { secret: 's' }, pushes: { secret: 's' } } },
      'all',
      (route) => paused.has(route),
    );
    await queue.start();
    const review = await receive(store, queue, { route: 'reviews' });
    const push = await receive(store, queue, { route: 'pushes', orderKey: null });
    await waitFor(async () => (await statusOf(store, push.id)) === 'delivered', 'push delivered');
    // The paused job sleeps in BullMQ's delayed set.
    await waitFor(
      async () => (await store.jobs.state(`${review.id}.${review.seq}`)) === 'delayed',
      'the paused job asleep',
    );
    expect(await statusOf(store, review.id)).toBe('queued');
    expect(ran).toEqual(['pushes']);
    paused.delete('reviews');
    queue.resumed?.();
    await waitFor(
      async () => (await statusOf(store, review.id)) === 'delivered',
      'review delivered',
    );
    expect(ran).toEqual(['pushes', 'reviews']);
  });

  it('never runs anything in a receiver; a worker on the same Redis does', async () => {
    const receiverStore = await open(fast);
    const workerStore = await open({ ...fast, prefix: receiverStore.keys.prefix });
    const ran: string[] = [];
    const receiver = queueOn(receiverStore, async () => 'no', {}, 'receiver');
    await receiver.start();
    const record = await receive(receiverStore, receiver);
    await sleep(200);
    expect(await statusOf(receiverStore, record.id)).toBe('queued');
    expect(receiver.runningCount).toBe(0);

    const worker = queueOn(
      workerStore,
      async ({ delivery }) => {
        ran.push(delivery.id);
        return 'ok';
      },
      {},
      'worker',
    );
    await worker.start();
    await waitFor(async () => (await statusOf(receiverStore, record.id)) === 'delivered', 'run');
    expect(ran).toEqual([record.id]);
  });

  it('retries a failing attempt at the time the journal shows, then delivers', async () => {
    const store = await open(fast);
    let calls = 0;
    const queue = queueOn(store, async () => {
      calls++;
      if (calls < 3) throw new Error(`flaky ${calls}`);
      return 'third time';
    });
    await queue.start();
    const record = await receive(store, queue);
    await waitFor(async () => (await statusOf(store, record.id)) === 'delivered', 'delivered');
    const read = await store.get(record.id);
    expect(read?.attempts).toBe(3);
    expect(read?.attemptLog.map((a) => a.error)).toEqual(['flaky 1', 'flaky 2', null]);
  });

  it('fails for good after max attempts, releases the key and ends the job', async () => {
    const store = await open(fast);
    const queue = queueOn(store, async () => {
      throw new Error('agent exploded');
    });
    await queue.start();
    const record = await receive(store, queue, { maxAttempts: 2, deliveryId: 'd-fail' });
    await waitFor(async () => (await statusOf(store, record.id)) === 'failed', 'failed');
    expect(await store.get(record.id)).toMatchObject({ attempts: 2, lastError: 'agent exploded' });
    expect((await store.accept(newDelivery({ deliveryId: 'd-fail' }), HOUR_MS)).accepted).toBe(
      true,
    );
    await waitFor(
      async () => (await store.jobs.state(`${record.id}.${record.seq}`)) !== 'active',
      'the job to end',
    );
    expect(['completed', 'unknown']).toContain(
      await store.jobs.state(`${record.id}.${record.seq}`),
    );
  });

  it('runs one pull request one at a time, in order of arrival, across two workers', async () => {
    const first = await open(fast);
    const second = await open({ ...fast, prefix: first.keys.prefix });
    const events: string[] = [];
    const run: Run = async ({ delivery }) => {
      events.push(`start ${delivery.deliveryId}`);
      await sleep(40);
      events.push(`end ${delivery.deliveryId}`);
      return 'ok';
    };
    const a = queueOn(first, run, { concurrency: 4 }, 'worker');
    const b = queueOn(second, run, { concurrency: 4 }, 'worker');
    const receiver = queueOn(first, run, {}, 'receiver');
    await Promise.all([a.start(), b.start()]);
    const ids = ['pr-1', 'pr-2', 'pr-3', 'pr-4', 'pr-5'];
    const records = [];
    for (const deliveryId of ids) records.push(await receive(first, receiver, { deliveryId }));
    await waitFor(
      async () => (await first.list({ status: 'delivered' })).length === ids.length,
      'all delivered',
    );
    expect(events).toEqual(ids.flatMap((id) => [`start ${id}`, `end ${id}`]));
  });

  it('keeps later deliveries of a pull request waiting while the first waits for its retry', async () => {
    const store = await open(fast);
    const events: string[] = [];
    let failedOnce = false;
    const queue = queueOn(
      store,
      async ({ delivery }) => {
        events.push(delivery.deliveryId);
        if (delivery.deliveryId === 'first' && !failedOnce) {
          failedOnce = true;
          throw new Error('try again');
        }
        return 'ok';
      },
      { concurrency: 4, retry_backoff_ms: 300 },
    );
    await queue.start();
    await receive(store, queue, { deliveryId: 'first' });
    await receive(store, queue, { deliveryId: 'second' });
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length === 2,
      'delivered',
    );
    expect(events).toEqual(['first', 'first', 'second']);
  });

  it('runs different pull requests side by side', async () => {
    const store = await open(fast);
    let running = 0;
    let most = 0;
    const queue = queueOn(
      store,
      async () => {
        running++;
        most = Math.max(most, running);
        await sleep(100);
        running--;
        return 'ok';
      },
      { concurrency: 4 },
    );
    await queue.start();
    for (let n = 1; n <= 3; n++) {
      await receive(store, queue, { orderKey: `reviews|octo/repo|${n}` });
    }
    await waitFor(
      async () => (await store.list({ status: 'delivered' })).length === 3,
      'delivered',
    );
    expect(most).toBeGreaterThan(1);
  });

  it('holds a route to its concurrency across workers', async () => {
    const first = await open(fast);
    const second = await open({ ...fast, prefix: first.keys.prefix });
    let running = 0;
    let most = 0;
    const run: Run = async () => {
      running++;
      most = Math.max(most, running);
      await sleep(30);
      running--;
      return 'ok';
    };
    const extra = { concurrency: 4, routes: { reviews: { secret: 's', concurrency: 1 } } };
    const a = queueOn(first, run, extra, 'worker');
    const b = queueOn(second, run, extra, 'worker');
    const receiver = queueOn(first, run, extra, 'receiver');
    await Promise.all([a.start(), b.start()]);
    for (let i = 0; i < 6; i++) await receive(first, receiver, { orderKey: null });
    await waitFor(
      async () => (await first.list({ status: 'delivered' })).length === 6,
      'delivered',
    );
    expect(most).toBe(1);
    expect(await first.client.exists(first.keys.routeLeases('reviews'))).toBe(0);
  });

  it('gives a journaled row that never got its job one when a worker starts (the sweep)', async () => {
    const store = await open(fast);
    const accepted = await store.accept(newDelivery(), HOUR_MS);
    if (!accepted.accepted) throw new Error('expected the delivery to be accepted');
    const queue = queueOn(store, async () => 'ok');
    await queue.start();
    await waitFor(async () => (await statusOf(store, accepted.record.id)) === 'delivered', 'run');
  });

  it('skips the old job of a replayed row: it runs once, under its new seq', async () => {
    const store = await open(fast);
    const receiver = queueOn(store, async () => 'no', {}, 'receiver');
    const record = await receive(store, receiver);
    const replayed = await store.replay(record.id, Date.now());
    expect(replayed?.seq).toBeGreaterThan(record.seq);
    let runs = 0;
    const worker = queueOn(store, async () => {
      runs++;
      return 'ok';
    });
    await worker.start();
    await waitFor(async () => (await statusOf(store, record.id)) === 'delivered', 'delivered');
    await waitFor(
      async () => (await store.jobs.state(`${record.id}.${record.seq}`)) !== 'waiting',
      'the stale job to be taken',
    );
    await sleep(100);
    expect(runs).toBe(1);
  });

  it('fails a row left running by a dead worker during its last allowed attempt', async () => {
    const store = await open(fast);
    const accepted = await store.accept(newDelivery({ maxAttempts: 1 }), HOUR_MS);
    if (!accepted.accepted) throw new Error('expected the delivery to be accepted');
    await store.markRunning(accepted.record.id, Date.now());
    let runs = 0;
    const queue = queueOn(store, async () => {
      runs++;
      return 'ok';
    });
    await queue.enqueue(accepted.record);
    await queue.start();
    await waitFor(async () => (await statusOf(store, accepted.record.id)) === 'failed', 'failed');
    expect((await store.get(accepted.record.id))?.lastError).toBe(LOST_LAST_ATTEMPT_ERROR);
    expect(runs).toBe(0);
  });

  it('puts an attempt cut short by stop back in the queue for another worker', async () => {
    const store = await open(fast);
    const stopping = queueOn(
      store,
      ({ signal }) =>
        new Promise<string>((_, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    );
    await stopping.start();
    const record = await receive(store, stopping);
    await waitFor(async () => stopping.runningCount === 1, 'the attempt to start');
    await stopping.stop(50);
    const read = await store.get(record.id);
    expect(read?.status).toBe('queued');
    expect(read?.attemptLog.at(-1)?.error).toMatch(/^interrupted/);

    const next = queueOn(store, async () => 'done');
    await next.start();
    await waitFor(async () => (await statusOf(store, record.id)) === 'delivered', 'delivered');
  });

  it('counts queued deliveries across processes, lazily', async () => {
    const store = await open(fast);
    const receiver = queueOn(store, async () => 'no', {}, 'receiver');
    await receive(store, receiver);
    await receive(store, receiver);
    expect(receiver.queuedCount).toBe(0);
    await waitFor(() => receiver.queuedCount === 2, 'the count to be read');
  });
});
