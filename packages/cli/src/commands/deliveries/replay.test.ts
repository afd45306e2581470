import type { NewDelivery } from '@webhook-gateway/core';
import { MemoryStore } from '@webhook-gateway/core/runtime';
import { describe, expect, it } from 'vitest';
import { DeliveryNotFoundError, findDelivery, replayDelivery } from './replay.js';
import { T0 } from './test-support/delivery-record.js';

function newDelivery(deliveryId: string): NewDelivery {
  return {
    route: 'reviews',
    event: 'pull_request',
    action: 'opened',
    deliveryId,
    receivedAt: T0,
    payload: { action: 'opened', number: 2 },
    headers: {},
    orderKey: null,
    maxAttempts: 3,
  };
}

async function storeWith(deliveryId: string) {
  const store = new MemoryStore();
  const result = await store.accept(newDelivery(deliveryId), 3_600_000);
  if (!result.accepted) throw new Error('not accepted');
  return { store, id: result.record.id };
}

describe('findDelivery', () => {
  it("finds a delivery by journal id or by the sender's delivery id", async () => {
    const { store, id } = await storeWith('sender-1');
    expect((await findDelivery(store, id)).deliveryId).toBe('sender-1');
    expect((await findDelivery(store, 'sender-1')).id).toBe(id);
  });

  it('says no delivery has an unknown id', async () => {
    const { store } = await storeWith('sender-1');
    await expect(findDelivery(store, 'nope')).rejects.toThrow(new DeliveryNotFoundError('nope'));
    await expect(findDelivery(store, 'nope')).rejects.toThrow('no delivery with id nope');
  });
});

describe('replayDelivery', () => {
  it('queues a failed delivery again with a fresh set of attempts', async () => {
    const { store, id } = await storeWith('sender-1');
    await store.markRunning(id, T0 + 1);
    await store.markFailed(id, 'target down', T0 + 2);
    const result = await replayDelivery(store, 'sender-1', T0 + 10);
    expect(result.replayed).toBe(true);
    expect(result.record).toMatchObject({ id, status: 'queued', attempts: 0, lastError: null });
    expect((await store.queued(0, 10)).map((r) => r.id)).toEqual([id]);
  });

  it('leaves a queued delivery as it is', async () => {
    const { store, id } = await storeWith('sender-1');
    const before = await store.get(id);
    const result = await replayDelivery(store, id, T0 + 10);
    expect(result).toEqual({ replayed: false, record: before });
  });

  it('refuses a running delivery, whose worker would overwrite the replay', async () => {
    const { store, id } = await storeWith('sender-1');
    await store.markRunning(id, T0 + 1);
    await expect(replayDelivery(store, id, T0 + 10)).rejects.toThrow(
      /is running .*once it has finished/,
    );
    expect((await store.get(id))?.status).toBe('running');
  });
});
