/** What `deliveries replay` does to the journal, apart from printing. */
import type { DeliveryRecord, Store } from '@webhook-gateway/core';

/** No row has this journal id or sender's delivery id. */
export class DeliveryNotFoundError extends Error {
  constructor(id: string) {
    super(`no delivery with id ${id}`);
    this.name = 'DeliveryNotFoundError';
  }
}

export type ReplayResult =
  /** Queued again with a fresh set of attempts. */
  | { replayed: true; record: DeliveryRecord }
  /** Already waiting for a worker: nothing to do. */
  | { replayed: false; record: DeliveryRecord };

/** Finds a delivery by journal id, else by the sender's delivery id (the newest row with it). */
export async function findDelivery(store: Store, id: string): Promise<DeliveryRecord> {
  const record = await store.get(id);
  if (!record) throw new DeliveryNotFoundError(id);
  return record;
}

/**
 * Queues a delivered or failed delivery again. A queued one is left as it is; a running one is
 * refused, because the worker running it would overwrite the replay with its own outcome.
 */
export async function replayDelivery(store: Store, id: string, now: number): Promise<ReplayResult> {
  const record = await findDelivery(store, id);
  if (record.status === 'queued') return { replayed: false, record };
  if (record.status === 'running') {
    throw new Error(
      `delivery ${record.id} is running (attempt ${record.attempts} of ${record.maxAttempts}); replay it once it has finished (a run cut short by a crash is requeued when the gateway starts)`,
    );
  }
  const replayed = await store.replay(record.id, now);
  if (!replayed) throw new DeliveryNotFoundError(id);
  return { replayed: true, record: replayed };
}
