import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { QUEUE_NAME } from './keys.js';
import type { RedisStore } from './redis-store.js';
import { HOUR_MS, newDelivery, useRedisStores, useTestRedis } from './test-support/stores.js';

const redis = await useTestRedis();
const { open } = useRedisStores(redis);

const T0 = Date.now();

/** Accepts a delivery and returns its record, failing the test on a duplicate. */
async function acceptNew(store: RedisStore, overrides = {}) {
  const result = await store.accept(newDelivery(overrides), HOUR_MS);
  if (!result.accepted) throw new Error('expected the delivery to be accepted');
  return result.record;
}

describe.skipIf(!redis)('accept', () => {
  it('journals a new delivery as queued and returns the committed row', async () => {
    const store = await open();
    const delivery = newDelivery();
    const result = await store.accept(delivery, HOUR_MS);
    expect(result.accepted).toBe(true);
    if (!result.accepted) return;
    expect(result.record).toMatchObject({
      ...delivery,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: delivery.receivedAt,
      prompt: null,
      answer: null,
      lastError: null,
      startedAt: null,
      finishedAt: null,
      attemptLog: [],
      agent: null,
    });
    expect(await store.get(result.record.id)).toEqual(result.record);
  });

  it('keeps null action and order key as null', async () => {
    const store = await open();
    const record = await acceptNew(store, { action: null, orderKey: null });
    expect(await store.get(record.id)).toMatchObject({ action: null, orderKey: null });
  });

  it('answers duplicate for the same route and delivery id within the window', async () => {
    const store = await open();
    const first = newDelivery();
    await store.accept(first, HOUR_MS);
    expect(await store.accept({ ...first }, HOUR_MS)).toEqual({
      accepted: false,
      reason: 'duplicate',
    });
    expect(await store.list({})).toHaveLength(1);
  });

  it('lets exactly one of many concurrent accepts of one delivery id through', async () => {
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

  it('de-duplicates per route: the same delivery id on another route is accepted', async () => {
    const store = await open();
    await acceptNew(store, { route: 'reviews', deliveryId: 'd-1' });
    const other = await store.accept(newDelivery({ route: 'triage', deliveryId: 'd-1' }), HOUR_MS);
    expect(other.accepted).toBe(true);
  });

  it('accepts the same delivery id again once the window has passed', async () => {
    const store = await open();
    await store.accept(newDelivery({ deliveryId: 'd-1' }), 30);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await store.accept(newDelivery({ deliveryId: 'd-1' }), 30)).accepted).toBe(true);
  });

  it('accepts a redelivery of a delivery that failed for good', async () => {
    const store = await open();
    const record = await acceptNew(store, { deliveryId: 'd-1' });
    await store.markRunning(record.id, T0 + 1);
    await store.markFailed(record.id, 'target answered 500', T0 + 2);
    const redelivery = await store.accept(newDelivery({ deliveryId: 'd-1' }), HOUR_MS);
    expect(redelivery.accepted).toBe(true);
  });

  it('keeps a delivered delivery a duplicate within the window', async () => {
    const store = await open();
    const record = await acceptNew(store, { deliveryId: 'd-1' });
    await store.markRunning(record.id, T0 + 1);
    await store.markDelivered(record.id, T0 + 2);
    const redelivery = await store.accept(newDelivery({ deliveryId: 'd-1' }), HOUR_MS);
    expect(redelivery).toEqual({ accepted: false, reason: 'duplicate' });
  });

  it('does not release a newer row’s key when an old row fails', async () => {
    const store = await open();
    const old = await acceptNew(store, { deliveryId: 'd-1' });
    await store.markFailed(old.id, 'boom', T0 + 1);
    await acceptNew(store, { deliveryId: 'd-1' });
    // The old row failing again (a late worker) leaves the new row's key alone.
    await store.replay(old.id, T0 + 2);
    await store.markFailed(old.id, 'boom again', T0 + 3);
    expect((await store.accept(newDelivery({ deliveryId: 'd-1' }), HOUR_MS)).accepted).toBe(false);
  });

  it('hands out increasing seq numbers in order of arrival', async () => {
    const store = await open();
    const seqs: number[] = [];
    for (let i = 0; i < 5; i++) seqs.push((await acceptNew(store)).seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(5);
  });

  it('rejects a payload with no JSON form, naming the delivery', async () => {
    const store = await open();
    const bad = store.accept(
      newDelivery({ deliveryId: 'd-bad', payload: { count: BigInt(1) } }),
      HOUR_MS,
    );
    await expect(bad).rejects.toThrow(/payload of delivery d-bad on route reviews/);
    expect(await store.list({})).toHaveLength(0);
  });
});

describe.skipIf(!redis)('JSON fields', () => {
  it('round-trips unicode and nested payloads, headers and agent accounting exactly', async () => {
    const payload = {
      title: 'Füge Wiederholungen hinzu — 修复 🚀 "quoted" \\ back\nslash',
      nested: { deep: { list: [1, 2.5, -3, null, true, { k: 'v' }], empty: {} } },
      emptyList: [],
      zero: 0,
      big: 9_007_199_254_740_991,
      nothing: null,
    };
    const store = await open();
    const record = await acceptNew(store, {
      payload,
      headers: { 'x-forge-event': 'pull_request', 'user-agent': 'Bot/1 ✓' },
    });
    const agent = {
      runner: 'openai',
      model: 'qwen2.5-coder',
      turns: 3,
      toolCalls: [{ tool: 'terminal', command: 'gh pr diff 7', exitCode: 0, durationMs: 120 }],
      usage: { promptTokens: 10, completionTokens: 20, totalTokens: 30 },
    };
    await store.saveProgress(record.id, { prompt: 'Review «PR» #7', answer: '', agent });
    const read = await store.get(record.id);
    expect(read?.payload).toEqual(payload);
    expect(read?.headers).toEqual({ 'x-forge-event': 'pull_request', 'user-agent': 'Bot/1 ✓' });
    expect(read?.prompt).toBe('Review «PR» #7');
    expect(read?.answer).toBe('');
    expect(read?.agent).toEqual(agent);
  });

  it('names the key of a damaged row', async () => {
    const store = await open();
    const record = await acceptNew(store);
    await store.client.hset(store.keys.delivery(record.id), 'payload', '{not json');
    await expect(store.get(record.id)).rejects.toThrow(
      `the journal row at Redis key "${store.keys.delivery(record.id)}" is damaged: payload is not valid JSON`,
    );
  });
});

describe.skipIf(!redis)('queued', () => {
  it('returns queued rows after the cursor, in order of arrival, at most limit', async () => {
    const store = await open();
    const records = [];
    for (let i = 0; i < 5; i++) records.push(await acceptNew(store));
    const [first, second, third, fourth, fifth] = records;
    if (!first || !second || !third || !fourth || !fifth) throw new Error('five rows expected');
    await store.markRunning(third.id, T0 + 1);

    const afterFirst = await store.queued(first.seq, 10);
    expect(afterFirst.map((r) => r.id)).toEqual([second.id, fourth.id, fifth.id]);
    const limited = await store.queued(0, 2);
    expect(limited.map((r) => r.id)).toEqual([first.id, second.id]);
  });
});

describe.skipIf(!redis)('get', () => {
  it('finds a row by journal id or by the sender delivery id (the newest row)', async () => {
    const store = await open();
    const failed = await acceptNew(store, { deliveryId: 'd-1' });
    await store.markFailed(failed.id, 'boom', T0 + 1);
    const redelivered = await acceptNew(store, { deliveryId: 'd-1' });

    expect((await store.get(failed.id))?.status).toBe('failed');
    expect((await store.get('d-1'))?.id).toBe(redelivered.id);
    expect(await store.get('no-such-id')).toBeUndefined();
  });
});

describe.skipIf(!redis)('list', () => {
  it('lists newest first, 50 by default', async () => {
    const store = await open();
    for (let i = 0; i < 60; i++) await acceptNew(store);
    const rows = await store.list({});
    expect(rows).toHaveLength(50);
    const seqs = rows.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(seqs[0]).toBe(60);
  });

  it('filters by route, by status, by both, and honours limit', async () => {
    const store = await open();
    const a1 = await acceptNew(store, { route: 'a' });
    const a2 = await acceptNew(store, { route: 'a' });
    const b1 = await acceptNew(store, { route: 'b' });
    await store.markRunning(a1.id, T0 + 1);
    await store.markDelivered(a1.id, T0 + 2);

    const ids = async (filter: Parameters<RedisStore['list']>[0]) =>
      (await store.list(filter)).map((r) => r.id);
    expect(await ids({ route: 'a' })).toEqual([a2.id, a1.id]);
    expect(await ids({ status: 'queued' })).toEqual([b1.id, a2.id]);
    expect(await ids({ route: 'a', status: 'delivered' })).toEqual([a1.id]);
    expect(await ids({ route: 'a', status: 'queued' })).toEqual([a2.id]);
    expect(await ids({ limit: 1 })).toEqual([b1.id]);
  });

  it('keeps route names with a colon apart', async () => {
    const store = await open();
    const colon = await acceptNew(store, { route: 'a:b' });
    await acceptNew(store, { route: 'a' });
    expect((await store.list({ route: 'a:b' })).map((r) => r.id)).toEqual([colon.id]);
  });
});

describe.skipIf(!redis)('the attempt lifecycle', () => {
  it('markRunning counts the attempt, keeps the first start time and logs the attempt', async () => {
    const store = await open();
    const record = await acceptNew(store);
    const first = await store.markRunning(record.id, T0 + 10);
    expect(first).toMatchObject({ status: 'running', attempts: 1, startedAt: T0 + 10 });
    await store.markRetry(record.id, 'agent timed out', T0 + 20, T0 + 1000);
    const second = await store.markRunning(record.id, T0 + 1000);
    expect(second).toMatchObject({ status: 'running', attempts: 2, startedAt: T0 + 10 });
    expect(second?.attemptLog).toEqual([
      { attempt: 1, startedAt: T0 + 10, finishedAt: T0 + 20, error: 'agent timed out' },
      { attempt: 2, startedAt: T0 + 1000, finishedAt: null, error: null },
    ]);
    expect(second).not.toHaveProperty('rev');
  });

  it('markRunning answers undefined for an unknown id', async () => {
    expect(await (await open()).markRunning('no-such-id', T0)).toBeUndefined();
  });

  it('counts every one of many concurrent markRunning calls (guarded changes retry)', async () => {
    const store = await open();
    const record = await acceptNew(store);
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.markRunning(record.id, T0 + i)));
    const read = await store.get(record.id);
    expect(read?.attempts).toBe(10);
    expect(read?.attemptLog).toHaveLength(10);
  });

  it('saveProgress keeps what it is given and leaves the rest, and never revives a gone row', async () => {
    const store = await open();
    const record = await acceptNew(store);
    await store.saveProgress(record.id, { prompt: 'Review PR #7' });
    await store.saveProgress(record.id, { answer: 'Looks good' });
    expect(await store.get(record.id)).toMatchObject({
      prompt: 'Review PR #7',
      answer: 'Looks good',
      agent: null,
    });
    await store.saveProgress('gone', { answer: 'x' });
    expect(await store.client.exists(store.keys.delivery('gone'))).toBe(0);
  });

  it('markRetry queues the delivery again for later with the error', async () => {
    const store = await open();
    const record = await acceptNew(store);
    await store.markRunning(record.id, T0 + 1);
    await store.markRetry(record.id, 'target answered 502', T0 + 2, T0 + 5000);
    expect(await store.get(record.id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'target answered 502',
      nextAttemptAt: T0 + 5000,
      finishedAt: null,
    });
    expect((await store.list({ status: 'running' })).map((r) => r.id)).toEqual([]);
    expect((await store.list({ status: 'queued' })).map((r) => r.id)).toEqual([record.id]);
  });

  it('markDelivered finishes the delivery and closes the attempt without an error', async () => {
    const store = await open();
    const record = await acceptNew(store);
    await store.markRunning(record.id, T0 + 1);
    await store.markDelivered(record.id, T0 + 2);
    const read = await store.get(record.id);
    expect(read).toMatchObject({ status: 'delivered', finishedAt: T0 + 2 });
    expect(read?.attemptLog).toEqual([
      { attempt: 1, startedAt: T0 + 1, finishedAt: T0 + 2, error: null },
    ]);
    expect(await store.client.zcard(store.keys.orderLine(record.orderKey ?? ''))).toBe(0);
  });

  it('markFailed records the final failure and its error', async () => {
    const store = await open();
    const record = await acceptNew(store);
    await store.markRunning(record.id, T0 + 1);
    await store.markFailed(record.id, 'gh: not authenticated', T0 + 2);
    const read = await store.get(record.id);
    expect(read).toMatchObject({
      status: 'failed',
      lastError: 'gh: not authenticated',
      finishedAt: T0 + 2,
    });
    expect(read?.attemptLog.at(-1)?.error).toBe('gh: not authenticated');
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
  it('queues any row again with a fresh set of attempts, a new, higher seq and a new job', async () => {
    const store = await open();
    const record = await acceptNew(store);
    const later = await acceptNew(store);
    await store.markRunning(record.id, T0 + 1);
    await store.saveProgress(record.id, { prompt: 'Review', answer: 'old answer' });
    await store.markFailed(record.id, 'boom', T0 + 2);

    const replayed = await store.replay(record.id, T0 + 100);
    expect(replayed).toMatchObject({
      id: record.id,
      status: 'queued',
      attempts: 0,
      prompt: 'Review',
      answer: null,
      lastError: null,
      finishedAt: null,
      nextAttemptAt: T0 + 100,
    });
    expect(replayed?.seq).toBeGreaterThan(later.seq);
    const seen = await store.queued(later.seq, 10);
    expect(seen.map((r) => r.id)).toEqual([record.id]);
    expect(await store.jobs.state(`${record.id}.${replayed?.seq}`)).not.toBe('unknown');
    // Back in its pull request's line, behind the later delivery.
    const line = await store.client.zrange(store.keys.orderLine(record.orderKey ?? ''), 0, -1);
    expect(line).toEqual([later.id, record.id]);
  });

  it('replays by the sender delivery id, the newest row with it', async () => {
    const store = await open();
    const failed = await acceptNew(store, { deliveryId: 'd-1' });
    await store.markFailed(failed.id, 'boom', T0 + 1);
    const redelivered = await acceptNew(store, { deliveryId: 'd-1' });
    await store.markDelivered(redelivered.id, T0 + 3);
    expect((await store.replay('d-1', T0 + 4))?.id).toBe(redelivered.id);
  });

  it('answers undefined for an unknown id', async () => {
    expect(await (await open()).replay('no-such-id', T0)).toBeUndefined();
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
    for (let i = 0; i < 200 && (await store.jobs.state(jobId)) !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await worker.close();
    connection.disconnect();
    expect(await store.jobs.liveness([jobId, 'no-such-job'])).toEqual(['finished', 'missing']);

    expect(await store.recover()).toBe(1);
    expect(await store.jobs.state(jobId)).toBe('waiting');
    expect(await store.jobs.liveness([jobId])).toEqual(['live']);
  });
});

describe.skipIf(!redis)('prune', () => {
  it('drops finished rows older than the retention with their index entries, keeps the rest', async () => {
    const store = await open();
    const day = 86_400_000;
    const oldDelivered = await acceptNew(store, { deliveryId: 'old-delivered' });
    const oldFailed = await acceptNew(store, { deliveryId: 'old-failed' });
    const queued = await acceptNew(store, { deliveryId: 'queued' });
    const recent = await acceptNew(store, { deliveryId: 'recent' });
    await store.markDelivered(oldDelivered.id, T0 - 8 * day);
    await store.markRunning(oldFailed.id, T0 - 8 * day);
    await store.markFailed(oldFailed.id, 'boom', T0 - 8 * day);
    await store.markDelivered(recent.id, T0 - 1);

    expect(await store.prune(T0 - 7 * day, T0)).toEqual({ deliveries: 2, keys: 0 });
    expect(await store.get(oldDelivered.id)).toBeUndefined();
    expect(await store.get(oldFailed.id)).toBeUndefined();
    expect(await store.get(queued.id)).toBeDefined();
    expect(await store.get(recent.id)).toBeDefined();
    expect((await store.list({})).map((r) => r.id)).toEqual([recent.id, queued.id]);
    expect(await store.list({ status: 'failed' })).toEqual([]);
    expect(await store.get('old-delivered')).toBeUndefined();
    expect(await store.prune(T0 - 7 * day, T0)).toEqual({ deliveries: 0, keys: 0 });
  });
});

describe.skipIf(!redis)('subscriptions', () => {
  const subscription = {
    name: 'nightly',
    description: 'Nightly triage ☾',
    events: ['issues', 'pull_request'],
    prompt: 'Triage {issue.title}',
    deliver: 'messenger_a',
    deliverChatId: '-1001234',
    skills: ['triage'],
    secret: 's3cret',
    createdAt: T0,
    updatedAt: T0,
  };

  it('stores, lists by name, updates and removes subscriptions', async () => {
    const store = await open();
    await store.putSubscription(subscription);
    await store.putSubscription({
      ...subscription,
      name: 'alpha',
      description: null,
      prompt: null,
      deliverChatId: null,
      events: [],
      skills: [],
    });
    expect(await store.getSubscription('nightly')).toEqual(subscription);
    expect((await store.listSubscriptions()).map((s) => s.name)).toEqual(['alpha', 'nightly']);

    const updated = { ...subscription, prompt: 'Summarize', updatedAt: T0 + 1 };
    await store.putSubscription(updated);
    expect(await store.getSubscription('nightly')).toEqual(updated);

    expect(await store.removeSubscription('nightly')).toBe(true);
    expect(await store.removeSubscription('nightly')).toBe(false);
    expect(await store.getSubscription('nightly')).toBeUndefined();
    expect(await store.listSubscriptions()).toHaveLength(1);
  });

  it('are shared by every store on the same Redis and prefix', async () => {
    const store = await open();
    const other = await open({ prefix: store.keys.prefix });
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
