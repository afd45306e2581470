import { describe, expect, it } from 'vitest';
import { INTERRUPTED_ATTEMPT_ERROR, type SqliteStore } from './sqlite-store.js';
import { HOUR_MS, T0, newDelivery, useTestStores } from './test-support/stores.js';

const { open } = useTestStores();

/** Accepts a delivery and returns its record, failing the test on a duplicate. */
async function acceptNew(store: SqliteStore, overrides = {}) {
  const result = await store.accept(newDelivery(overrides), HOUR_MS);
  if (!result.accepted) throw new Error('expected the delivery to be accepted');
  return result.record;
}

describe('accept', () => {
  it('journals a new delivery as queued and returns the committed row', async () => {
    const store = open();
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

  it('answers duplicate for the same route and delivery id within the window', async () => {
    const store = open();
    const first = newDelivery();
    await store.accept(first, HOUR_MS);
    const again = await store.accept({ ...first, receivedAt: T0 + HOUR_MS - 1 }, HOUR_MS);
    expect(again).toEqual({ accepted: false, reason: 'duplicate' });
    expect(await store.list({})).toHaveLength(1);
  });

  it('de-duplicates per route: the same delivery id on another route is accepted', async () => {
    const store = open();
    await acceptNew(store, { route: 'reviews', deliveryId: 'd-1' });
    const other = await store.accept(newDelivery({ route: 'triage', deliveryId: 'd-1' }), HOUR_MS);
    expect(other.accepted).toBe(true);
  });

  it('accepts the same delivery id again once the window has passed', async () => {
    const store = open();
    await acceptNew(store, { deliveryId: 'd-1', receivedAt: T0 });
    const later = await store.accept(
      newDelivery({ deliveryId: 'd-1', receivedAt: T0 + HOUR_MS }),
      HOUR_MS,
    );
    expect(later.accepted).toBe(true);
  });

  it('accepts a redelivery of a delivery that failed for good', async () => {
    const store = open();
    const record = await acceptNew(store, { deliveryId: 'd-1' });
    await store.markRunning(record.id, T0 + 1);
    await store.markFailed(record.id, 'target answered 500', T0 + 2);
    const redelivery = await store.accept(
      newDelivery({ deliveryId: 'd-1', receivedAt: T0 + 3 }),
      HOUR_MS,
    );
    expect(redelivery.accepted).toBe(true);
  });

  it('keeps a delivered delivery a duplicate within the window', async () => {
    const store = open();
    const record = await acceptNew(store, { deliveryId: 'd-1' });
    await store.markRunning(record.id, T0 + 1);
    await store.markDelivered(record.id, T0 + 2);
    const redelivery = await store.accept(
      newDelivery({ deliveryId: 'd-1', receivedAt: T0 + 3 }),
      HOUR_MS,
    );
    expect(redelivery).toEqual({ accepted: false, reason: 'duplicate' });
  });

  it('hands out increasing seq numbers in order of arrival', async () => {
    const store = open();
    const seqs: number[] = [];
    for (let i = 0; i < 5; i++) seqs.push((await acceptNew(store)).seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(5);
  });

  it('rejects a payload with no JSON form, naming the delivery, without failing its batch', async () => {
    const store = open();
    const bad = store.accept(
      newDelivery({ deliveryId: 'd-bad', payload: { count: BigInt(1) } }),
      HOUR_MS,
    );
    const good = store.accept(newDelivery({ deliveryId: 'd-good' }), HOUR_MS);
    await expect(bad).rejects.toThrow(/payload of delivery d-bad on route reviews/);
    expect((await good).accepted).toBe(true);
  });
});

describe('JSON columns', () => {
  it('round-trips unicode and nested payloads, headers and agent accounting exactly', async () => {
    const payload = {
      title: 'Füge Wiederholungen hinzu — 修复 🚀 "quoted" \\ back\nslash',
      nested: { deep: { list: [1, 2.5, -3, null, true, { k: 'v' }], empty: {} } },
      emptyList: [],
      zero: 0,
      big: 9_007_199_254_740_991,
      nothing: null,
    };
    const store = open();
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
    await store.saveProgress(record.id, { prompt: 'Review «PR» #7', answer: 'LGTM 👍', agent });
    const read = await store.get(record.id);
    expect(read?.payload).toEqual(payload);
    expect(read?.headers).toEqual({ 'x-forge-event': 'pull_request', 'user-agent': 'Bot/1 ✓' });
    expect(read?.prompt).toBe('Review «PR» #7');
    expect(read?.answer).toBe('LGTM 👍');
    expect(read?.agent).toEqual(agent);
  });
});

describe('queued', () => {
  it('returns queued rows after the cursor, in order of arrival, at most limit', async () => {
    const store = open();
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

describe('get', () => {
  it('finds a row by journal id or by the sender delivery id (the newest row)', async () => {
    const store = open();
    const failed = await acceptNew(store, { deliveryId: 'd-1' });
    await store.markFailed(failed.id, 'boom', T0 + 1);
    const redelivered = await acceptNew(store, { deliveryId: 'd-1', receivedAt: T0 + 2 });

    expect((await store.get(failed.id))?.status).toBe('failed');
    expect((await store.get('d-1'))?.id).toBe(redelivered.id);
    expect(await store.get('no-such-id')).toBeUndefined();
  });
});

describe('list', () => {
  it('lists newest first, 50 by default', async () => {
    const store = open();
    for (let i = 0; i < 60; i++) await acceptNew(store);
    const rows = await store.list({});
    expect(rows).toHaveLength(50);
    const seqs = rows.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(seqs[0]).toBe(60);
  });

  it('filters by route, by status, by both, and honours limit', async () => {
    const store = open();
    const a1 = await acceptNew(store, { route: 'a' });
    const a2 = await acceptNew(store, { route: 'a' });
    const b1 = await acceptNew(store, { route: 'b' });
    await store.markRunning(a1.id, T0 + 1);
    await store.markDelivered(a1.id, T0 + 2);

    const ids = async (filter: Parameters<SqliteStore['list']>[0]) =>
      (await store.list(filter)).map((r) => r.id);
    expect(await ids({ route: 'a' })).toEqual([a2.id, a1.id]);
    expect(await ids({ status: 'queued' })).toEqual([b1.id, a2.id]);
    expect(await ids({ route: 'a', status: 'delivered' })).toEqual([a1.id]);
    expect(await ids({ limit: 1 })).toEqual([b1.id]);
  });
});

describe('the attempt lifecycle', () => {
  it('markRunning counts the attempt, keeps the first start time and logs the attempt', async () => {
    const store = open();
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
  });

  it('markRunning answers undefined for an unknown id', async () => {
    expect(await open().markRunning('no-such-id', T0)).toBeUndefined();
  });

  it('saveProgress keeps what it is given and leaves the rest', async () => {
    const store = open();
    const record = await acceptNew(store);
    await store.saveProgress(record.id, { prompt: 'Review PR #7' });
    await store.saveProgress(record.id, { answer: 'Looks good' });
    expect(await store.get(record.id)).toMatchObject({
      prompt: 'Review PR #7',
      answer: 'Looks good',
      agent: null,
    });
  });

  it('markRetry queues the delivery again for later with the error', async () => {
    const store = open();
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
  });

  it('markDelivered finishes the delivery and closes the attempt without an error', async () => {
    const store = open();
    const record = await acceptNew(store);
    await store.markRunning(record.id, T0 + 1);
    await store.markDelivered(record.id, T0 + 2);
    const read = await store.get(record.id);
    expect(read).toMatchObject({ status: 'delivered', finishedAt: T0 + 2 });
    expect(read?.attemptLog).toEqual([
      { attempt: 1, startedAt: T0 + 1, finishedAt: T0 + 2, error: null },
    ]);
  });

  it('markFailed records the final failure and its error', async () => {
    const store = open();
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
});

describe('replay', () => {
  it('queues any row again with a fresh set of attempts and a new, higher seq', async () => {
    const store = open();
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
      answer: null,
      lastError: null,
      finishedAt: null,
      nextAttemptAt: T0 + 100,
    });
    expect(replayed?.seq).toBeGreaterThan(later.seq);
    // A gateway whose poll cursor is past every earlier row still sees it.
    const seen = await store.queued(later.seq, 10);
    expect(seen.map((r) => r.id)).toEqual([record.id]);
  });

  it('replays by the sender delivery id, the newest row with it', async () => {
    const store = open();
    const failed = await acceptNew(store, { deliveryId: 'd-1' });
    await store.markFailed(failed.id, 'boom', T0 + 1);
    const redelivered = await acceptNew(store, { deliveryId: 'd-1', receivedAt: T0 + 2 });
    await store.markDelivered(redelivered.id, T0 + 3);
    expect((await store.replay('d-1', T0 + 4))?.id).toBe(redelivered.id);
  });

  it('answers undefined for an unknown id', async () => {
    expect(await open().replay('no-such-id', T0)).toBeUndefined();
  });
});

describe('recover', () => {
  it('puts rows left running back in the queue and closes their interrupted attempt', async () => {
    const store = open();
    const running = await acceptNew(store);
    const delivered = await acceptNew(store);
    const queued = await acceptNew(store);
    await store.markRunning(running.id, T0 + 1);
    await store.markRunning(delivered.id, T0 + 1);
    await store.markDelivered(delivered.id, T0 + 2);

    expect(await store.recover()).toBe(1);
    const read = await store.get(running.id);
    expect(read?.status).toBe('queued');
    expect(read?.attemptLog.at(-1)?.error).toBe(INTERRUPTED_ATTEMPT_ERROR);
    expect((await store.get(delivered.id))?.status).toBe('delivered');
    expect((await store.get(queued.id))?.status).toBe('queued');
    expect(await store.recover()).toBe(0);
  });
});

describe('prune', () => {
  it('drops finished rows older than the retention and expired keys, keeps the rest', async () => {
    const store = open();
    const day = 86_400_000;
    const oldDelivered = await acceptNew(store, { deliveryId: 'old-delivered' });
    const oldFailed = await acceptNew(store, { deliveryId: 'old-failed' });
    const oldQueued = await acceptNew(store, { deliveryId: 'old-queued' });
    const recent = await acceptNew(store, { deliveryId: 'recent', receivedAt: T0 + 8 * day });
    await store.markDelivered(oldDelivered.id, T0 + 1);
    await store.markRunning(oldFailed.id, T0 + 1);
    await store.markRetry(oldFailed.id, 'boom', T0 + 2, T0 + 3);
    await store.markFailed(oldFailed.id, 'boom', T0 + 4);
    await store.markDelivered(recent.id, T0 + 8 * day + 1);

    const now = T0 + 8 * day + 10;
    const removed = await store.prune(now - 7 * day, now);
    // Keys live on their rows: nothing else to drop.
    expect(removed).toEqual({ deliveries: 2, keys: 0 });
    expect(await store.get(oldDelivered.id)).toBeUndefined();
    expect(await store.get(oldFailed.id)).toBeUndefined();
    expect(await store.get(oldQueued.id)).toBeDefined();
    expect(await store.get(recent.id)).toBeDefined();
    // The recent key is still live; the pruned one is free again.
    const recentAgain = newDelivery({ deliveryId: 'recent', receivedAt: now });
    expect((await store.accept(recentAgain, HOUR_MS)).accepted).toBe(false);
    const oldAgain = newDelivery({ deliveryId: 'old-delivered', receivedAt: now });
    expect((await store.accept(oldAgain, HOUR_MS)).accepted).toBe(true);
  });

  it('keeps a finished row while its key is live, when the retention is shorter than the window', async () => {
    const store = open();
    const day = 86_400_000;
    const twoDays = 2 * day;
    const result = await store.accept(newDelivery({ deliveryId: 'd-1' }), twoDays);
    if (!result.accepted) throw new Error('expected the delivery to be accepted');
    await store.markDelivered(result.record.id, T0 + 1);

    // A retention of one hour: the row outlives it as long as its key is live.
    const later = T0 + 2 * HOUR_MS;
    expect(await store.prune(later - HOUR_MS, later)).toEqual({ deliveries: 0, keys: 0 });
    const again = newDelivery({ deliveryId: 'd-1', receivedAt: later });
    expect((await store.accept(again, twoDays)).accepted).toBe(false);
    const afterWindow = T0 + 3 * day;
    expect((await store.prune(afterWindow - HOUR_MS, afterWindow)).deliveries).toBe(1);
    expect(await store.get(result.record.id)).toBeUndefined();
  });
});

describe('subscriptions', () => {
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
    const store = open();
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
});

describe('close', () => {
  it('commits accepts still waiting for their batch before closing', async () => {
    const store = open();
    const pending = store.accept(newDelivery({ deliveryId: 'd-last' }), HOUR_MS);
    await store.close();
    expect((await pending).accepted).toBe(true);
    const reopened = open(store.path);
    expect((await reopened.get('d-last'))?.deliveryId).toBe('d-last');
  });

  it('refuses calls after close with a message naming the file', async () => {
    const store = open();
    await store.close();
    await expect(store.accept(newDelivery(), HOUR_MS)).rejects.toThrow(
      `the SQLite store at ${store.path} is closed`,
    );
    await expect(store.list({})).rejects.toThrow(/is closed/);
  });
});
