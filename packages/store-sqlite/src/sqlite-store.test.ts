import { storeContract } from '@webhook-gateway/core/testing';
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

describe('the Store contract', () => {
  // A fixed clock: keys expire by the deliveries' receivedAt, never by the machine's time.
  const subject = { open: () => open(), now: () => T0 };
  for (const check of storeContract) it(check.name, () => check.run(subject));
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

describe('saveProgress', () => {
  it('joins saves of a row made in one tick: later values win, missing ones keep the earlier', async () => {
    const store = open();
    const record = await acceptNew(store);
    await store.markRunning(record.id, T0 + 1);
    const saves = [
      store.saveProgress(record.id, { prompt: 'Review PR #1' }),
      store.saveProgress(record.id, { answer: 'first', agent: { runner: 'dry-run' } }),
      store.saveProgress(record.id, { answer: 'second' }),
    ];
    await Promise.all(saves);
    expect(await store.get(record.id)).toMatchObject({
      prompt: 'Review PR #1',
      answer: 'second',
      agent: { runner: 'dry-run' },
    });
  });

  it('does not move a save before a status change submitted between it and an earlier save', async () => {
    const store = open();
    const record = await acceptNew(store);
    await store.markRunning(record.id, T0 + 1);
    const writes = [
      store.saveProgress(record.id, { prompt: 'Review PR #1' }),
      store.markRetry(record.id, 'target down', T0 + 2, T0 + 3),
      store.saveProgress(record.id, { answer: 'after the retry' }),
    ];
    await Promise.all(writes);
    expect(await store.get(record.id)).toMatchObject({
      status: 'queued',
      prompt: 'Review PR #1',
      answer: 'after the retry',
      lastError: 'target down',
    });
  });
});

describe('prune', () => {
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
