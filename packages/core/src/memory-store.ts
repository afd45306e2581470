/** A store that keeps everything in this process: for tests and throwaway runs. */
import { randomUUID } from 'node:crypto';
import {
  queuedRecord,
  type AgentAccounting,
  type DeliveryRecord,
  type NewDelivery,
} from './delivery.js';
import type { AcceptResult, DeliveryFilter, QueuedDelivery, Store, Subscription } from './store.js';

export class MemoryStore implements Store {
  readonly kind = 'memory';
  private readonly deliveries = new Map<string, DeliveryRecord>();
  /** `route\0deliveryId` → expiry (ms). */
  private readonly keys = new Map<string, number>();
  private readonly subscriptions = new Map<string, Subscription>();
  private seq = 0;

  accept(delivery: NewDelivery, windowMs: number): Promise<AcceptResult> {
    const key = `${delivery.route}\0${delivery.deliveryId}`;
    const expiry = this.keys.get(key);
    if (expiry !== undefined && expiry > delivery.receivedAt) {
      return Promise.resolve({ accepted: false, reason: 'duplicate' });
    }
    this.keys.set(key, delivery.receivedAt + windowMs);
    const record = queuedRecord(delivery, randomUUID(), ++this.seq);
    this.deliveries.set(record.id, record);
    return Promise.resolve({ accepted: true, record: structuredClone(record) });
  }

  recover(): Promise<number> {
    let count = 0;
    for (const record of this.deliveries.values()) {
      if (record.status === 'running') {
        record.status = 'queued';
        this.closeAttempt(
          record,
          Date.now(),
          'interrupted: the gateway stopped during this attempt',
        );
        count++;
      }
    }
    return Promise.resolve(count);
  }

  queued(afterSeq: number, limit: number): Promise<QueuedDelivery[]> {
    const rows = [...this.deliveries.values()]
      .filter((r) => r.status === 'queued' && r.seq > afterSeq)
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit);
    return Promise.resolve(
      rows.map(({ id, seq, route, deliveryId, orderKey, nextAttemptAt }) => ({
        id,
        seq,
        route,
        deliveryId,
        orderKey,
        nextAttemptAt,
      })),
    );
  }

  get(id: string): Promise<DeliveryRecord | undefined> {
    const record = this.find(id);
    return Promise.resolve(record ? structuredClone(record) : undefined);
  }

  list(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    const rows = [...this.deliveries.values()]
      .filter(
        (r) =>
          (!filter.route || r.route === filter.route) &&
          (!filter.status || r.status === filter.status),
      )
      .sort((a, b) => b.seq - a.seq)
      .slice(0, filter.limit ?? 50);
    return Promise.resolve(rows.map((r) => structuredClone(r)));
  }

  markRunning(id: string, now: number): Promise<DeliveryRecord | undefined> {
    const record = this.deliveries.get(id);
    if (!record) return Promise.resolve(undefined);
    record.status = 'running';
    record.attempts += 1;
    record.startedAt ??= now;
    record.attemptLog.push({
      attempt: record.attemptLog.length + 1,
      startedAt: now,
      finishedAt: null,
      error: null,
    });
    return Promise.resolve(structuredClone(record));
  }

  saveProgress(
    id: string,
    progress: { prompt?: string; answer?: string; agent?: AgentAccounting },
  ): Promise<void> {
    const record = this.deliveries.get(id);
    if (record) {
      if (progress.prompt !== undefined) record.prompt = progress.prompt;
      if (progress.answer !== undefined) record.answer = progress.answer;
      if (progress.agent !== undefined) record.agent = progress.agent;
    }
    return Promise.resolve();
  }

  markRetry(id: string, error: string, now: number, nextAttemptAt: number): Promise<void> {
    const record = this.deliveries.get(id);
    if (record) {
      record.status = 'queued';
      record.lastError = error;
      record.nextAttemptAt = nextAttemptAt;
      this.closeAttempt(record, now, error);
    }
    return Promise.resolve();
  }

  markDelivered(id: string, now: number): Promise<void> {
    const record = this.deliveries.get(id);
    if (record) {
      record.status = 'delivered';
      record.finishedAt = now;
      this.closeAttempt(record, now, null);
    }
    return Promise.resolve();
  }

  markFailed(id: string, error: string, now: number): Promise<void> {
    const record = this.deliveries.get(id);
    if (record) {
      record.status = 'failed';
      record.lastError = error;
      record.finishedAt = now;
      this.closeAttempt(record, now, error);
      this.keys.delete(`${record.route}\0${record.deliveryId}`);
    }
    return Promise.resolve();
  }

  replay(id: string, now: number): Promise<DeliveryRecord | undefined> {
    const record = this.find(id);
    if (!record) return Promise.resolve(undefined);
    record.status = 'queued';
    record.attempts = 0;
    record.answer = null;
    record.lastError = null;
    record.finishedAt = null;
    record.nextAttemptAt = now;
    record.seq = ++this.seq;
    return Promise.resolve(structuredClone(record));
  }

  prune(olderThan: number, now: number): Promise<{ deliveries: number; keys: number }> {
    let deliveries = 0;
    let keys = 0;
    for (const [id, record] of this.deliveries) {
      if (record.finishedAt !== null && record.finishedAt < olderThan) {
        this.deliveries.delete(id);
        deliveries++;
      }
    }
    for (const [key, expiry] of this.keys) {
      if (expiry <= now) {
        this.keys.delete(key);
        keys++;
      }
    }
    return Promise.resolve({ deliveries, keys });
  }

  listSubscriptions(): Promise<Subscription[]> {
    return Promise.resolve([...this.subscriptions.values()].map((s) => structuredClone(s)));
  }

  getSubscription(name: string): Promise<Subscription | undefined> {
    const found = this.subscriptions.get(name);
    return Promise.resolve(found ? structuredClone(found) : undefined);
  }

  putSubscription(subscription: Subscription): Promise<void> {
    this.subscriptions.set(subscription.name, structuredClone(subscription));
    return Promise.resolve();
  }

  removeSubscription(name: string): Promise<boolean> {
    return Promise.resolve(this.subscriptions.delete(name));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** By journal id, or by the sender's delivery id (newest first). */
  private find(id: string): DeliveryRecord | undefined {
    const direct = this.deliveries.get(id);
    if (direct) return direct;
    let found: DeliveryRecord | undefined;
    for (const record of this.deliveries.values()) {
      if (record.deliveryId === id && (!found || record.seq > found.seq)) found = record;
    }
    return found;
  }

  private closeAttempt(record: DeliveryRecord, now: number, error: string | null): void {
    const last = record.attemptLog.at(-1);
    if (last && last.finishedAt === null) {
      last.finishedAt = now;
      last.error = error;
    }
  }
}
