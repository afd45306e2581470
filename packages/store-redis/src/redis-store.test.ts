import { sampleSubscription, storeContract, waitFor } from '@webhook-gateway/core/testing';
import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { QUEUE_NAME } from './keys.js';
import type { RedisStore } from './redis-store.js';
import { HOUR_MS, newDelivery, useRedisStores, useTestRedis } from './test-support/stores.js';

const redis = await useTestRedis();
const { open } = useRedisStores(redis);

// Redis expires idempotency keys on its own clock (PX), so the times here follow the real one.
const T0 = Date.now();

/** Accepts a delivery and returns its record, failing the test on a duplicate. */
async function acceptNew(store: RedisStore, overrides = {}) {
  const result = await store.accept(newDelivery(overrides), HOUR_MS);
  if (!result.accepted) throw new Error('expected the delivery to be accepted');
  return result.record;
}

describe.skipIf(!redis)('the Store contract', () => {
  const subject = { open: () => open() };
  for (const check of storeContract) it(check.name, () => check.run(subject));
});

describe.skipIf(!redis)('supersede across processes', () => {
  it('a row is either started by one worker or superseded by another receiver, never both', async () => {
    const receiver = await open();
    const worker = await open({ prefix: receiver.keys.prefix });
    for (let round = 0; round < 20; round++) {
      const orderKey = `reviews|octo/repo|${round}`;
      const older = await acceptNew(receiver, { orderKey });
      const [started, accepted] = await Promise.all([
        worker.markRunning(older.id, Date.now()),
        receiver.accept(newDelivery({ orderKey, supersede: true }), HOUR_MS),
      ]);
      const row = await receiver.get(older.id);
      if (!accepted.accepted) throw new Error('expected the delivery to be accepted');
      if (started) {
        expect(row?.status).toBe('running');
        expect(accepted.superseded).toBeUndefined();
      } else {
        expect(row).toMatchObject({ status: 'superseded', supersededBy: accepted.record.id });
        expect(accepted.superseded).toEqual([older.id]);
      }
      // The superseded row left the pull request's line: the newer one is next in it.
      const line = await receiver.client.zrange(receiver.keys.orderLine(orderKey), 0, -1);
      expect(line).toEqual(started ? [older.id, accepted.record.id] : [accepted.record.id]);
    }
  });
});

describe.skipIf(!redis)('accept', () => {
  it('lets exactly one of many concurrent accepts across two stores on one prefix through', async () => {
    const first = await open();
    const other = await open({ prefix: first.keys.prefix });
    const delivery = newDelivery();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? first : other).accept({ ...delivery }, HOUR_MS),
      ),
    );
    expect(results.filter((r) => r.accepted)).toHaveLength(1);
    expect(await first.list({})).toHaveLength(1);
  });
});

describe.skipIf(!redis)('rows', () => {
  it('names the key of a damaged row', async () => {
    const store = await open();
    const record = await acceptNew(store);
    await store.client.hset(store.keys.delivery(record.id), 'payload', '{not json');
    await expect(store.get(record.id)).rejects.toThrow(
      `the journal row at Redis key "${store.keys.delivery(record.id)}" is damaged: payload is not valid JSON`,
    );
  });

  it('keeps route names with a colon apart', async () => {
    const store = await open();
    const colon = await acceptNew(store, { route: 'a:b' });
    await acceptNew(store, { route: 'a' });
    expect((await store.list({ route: 'a:b' })).map((r) => r.id)).toEqual([colon.id]);
  });

  it('saveProgress never revives a gone row, not even as a half-written hash', async () => {
    const store = await open();
    await store.saveProgress('gone', { answer: 'x' });
    expect(await store.client.exists(store.keys.delivery('gone'))).toBe(0);
  });
});

describe.skipIf(!redis)('the attempt lifecycle', () => {
  it('markDelivered takes the delivery out of its pull request’s line', async () => {
    const store = await open();
    const record = await acceptNew(store);
    const line = store.keys.orderLine(record.orderKey ?? '');
    expect(await store.client.zrange(line, 0, -1)).toEqual([record.id]);
    await store.markRunning(record.id, T0 + 1);
    await store.markDelivered(record.id, T0 + 2);
    expect(await store.client.zcard(line)).toBe(0);
  });

  it('requeueInterrupted puts a running row back with an interrupted attempt', async () => {
    const store = await open();
    const record = await acceptNew(store);
    await store.markRunning(record.id, T0 + 1);
    await store.requeueInterrupted(record.id, T0 + 2);
    const read = await store.get(record.id);
    expect(read?.status).toBe('queued');
    expect(read?.attemptLog.at(-1)?.error).toMatch(/^interrupted/);
  });
});

describe.skipIf(!redis)('replay', () => {
  it('adds a new job and puts the row back in its pull request’s line, behind later deliveries', async () => {
    const store = await open();
    const record = await acceptNew(store);
    const later = await acceptNew(store);
    await store.markRunning(record.id, T0 + 1);
    await store.markFailed(record.id, 'boom', T0 + 2);

    const replayed = await store.replay(record.id, T0 + 100);
    expect(await store.jobs.state(`${record.id}.${replayed?.seq}`)).not.toBe('unknown');
    const line = await store.client.zrange(store.keys.orderLine(record.orderKey ?? ''), 0, -1);
    expect(line).toEqual([later.id, record.id]);
  });
});

describe.skipIf(!redis)('recover', () => {
  it('adds jobs for unfinished rows that have none, once', async () => {
    const store = await open();
    const queued = await acceptNew(store);
    const running = await acceptNew(store);
    const delivered = await acceptNew(store);
    await store.markRunning(running.id, T0 + 1);
    await store.markDelivered(delivered.id, T0 + 2);

    expect(await store.recover()).toBe(2);
    expect(await store.jobs.state(`${queued.id}.${queued.seq}`)).toBe('waiting');
    expect(await store.jobs.state(`${running.id}.${running.seq}`)).toBe('waiting');
    expect(await store.jobs.state(`${delivered.id}.${delivered.seq}`)).toBe('unknown');
    expect(await store.recover()).toBe(0);
  });

  it('gives a row whose job ended in BullMQ’s failed set a new job', async () => {
    const store = await open();
    const record = await acceptNew(store, { maxAttempts: 1 });
    await store.jobs.add(record);
    const connection = store.client.duplicate({ maxRetriesPerRequest: null });
    const worker = new Worker(
      QUEUE_NAME,
      async () => {
        throw new Error('Redis went away mid-job');
      },
      { connection, prefix: store.keys.prefix },
    );
    const jobId = `${record.id}.${record.seq}`;
    await waitFor(async () => (await store.jobs.state(jobId)) === 'failed', 'the job to fail');
    await worker.close();
    connection.disconnect();
    expect(await store.jobs.liveness([jobId, 'no-such-job'])).toEqual(['finished', 'missing']);

    expect(await store.recover()).toBe(1);
    expect(await store.jobs.state(jobId)).toBe('waiting');
    expect(await store.jobs.liveness([jobId])).toEqual(['live']);
  });
});

describe.skipIf(!redis)('subscriptions', () => {
  it('are shared by every store on the same Redis and prefix', async () => {
    const store = await open();
    const other = await open({ prefix: store.keys.prefix });
    const subscription = sampleSubscription();
    await store.putSubscription(subscription);
    expect(await other.getSubscription('nightly')).toEqual(subscription);
  });
});

describe.skipIf(!redis)('close', () => {
  it('refuses calls after close with a message naming the URL', async () => {
    const store = await open();
    await store.close();
    await expect(store.accept(newDelivery(), HOUR_MS)).rejects.toThrow(
      `the Redis store at ${store.options.displayUrl} is closed`,
    );
  });
});

describe.skipIf(!redis)('tryLease', () => {
  it('hands a lease to one of two gateways on one prefix, renews it for its holder, until it expires', async () => {
    const first = await open();
    const other = await open({ prefix: first.keys.prefix });
    const held = await Promise.all([
      first.tryLease('reconcile', 60_000),
      other.tryLease('reconcile', 60_000),
    ]);
    expect(held.filter(Boolean)).toHaveLength(1);
    // The holder renews it (an early pass); the other is still refused.
    const [holder, waiter] = held[0] ? [first, other] : [other, first];
    expect(await holder.tryLease('reconcile', 60_000)).toBe(true);
    expect(await waiter.tryLease('reconcile', 60_000)).toBe(false);
    expect(await first.tryLease('another-job', 60_000)).toBe(true);

    expect(await first.tryLease('short', 50)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await other.tryLease('short', 50)).toBe(true);
  });
});
