/** A store that keeps everything in this process: for tests and throwaway runs. */
import { randomUUID } from 'node:crypto';
import {
  coalescedTiming,
  isSupersedable,
  journalJson,
  queuedRecord,
  type DeliveryRecord,
  type NewDelivery,
  type NotRunStatus,
  type DeliveredStatus,
} from './delivery.js';
import { INTERRUPTED_ERROR } from './interrupted-attempts.js';
import type { Finding } from './findings.js';
import type { LifecycleEvent } from './lifecycle-events.js';
import { lifecycleMessages } from './lifecycle-messages.js';
import type { OutboundPlan } from './outbound-plan.js';
import type { NewOutboxMessage, OutboxClaim, OutboxMessage, OutboxOutcome } from './outbox.js';
import type {
  AcceptResult,
  DeliveryFilter,
  DeliveryOutline,
  DeliveryProgress,
  Pause,
  QueuedDelivery,
  Store,
  Subscription,
} from './store.js';

export class MemoryStore implements Store {
  readonly kind = 'memory';
  private readonly deliveries = new Map<string, DeliveryRecord>();
  /** `route\0deliveryId` → the row holding the key, and when the key expires (ms). */
  private readonly keys = new Map<string, { id: string; expiresAt: number }>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly cursors = new Map<string, string>();
  /** Pauses by route (`null`: every route), in the order they began. */
  private readonly pausesByRoute = new Map<string | null, Pause>();
  /** Findings by order key, copied in and out so a caller's change never reaches the store. */
  private readonly findingsByRequest = new Map<string, Finding[]>();
  /** The outbox by message id; a claimed message is due again when its lease ends. */
  private readonly outbox = new Map<string, OutboxEntry>();
  private seq = 0;
  private closed = false;

  async accept(
    delivery: NewDelivery,
    windowMs: number,
    outbound?: OutboundPlan,
  ): Promise<AcceptResult> {
    this.assertOpen();
    // Kept as JSON, as the real stores keep it: what has no JSON form is refused here too.
    const payload = jsonCopy(delivery.payload, 'payload', delivery);
    const headers = jsonCopy(delivery.headers, 'headers', delivery);
    const key = idempotencyKey(delivery);
    const held = this.keys.get(key);
    if (held !== undefined && held.expiresAt > delivery.receivedAt) {
      return { accepted: false, reason: 'duplicate' };
    }
    const record = queuedRecord({ ...delivery, payload, headers }, randomUUID(), ++this.seq);
    this.keys.set(key, { id: record.id, expiresAt: delivery.receivedAt + windowMs });
    const ended = delivery.supersede ? this.supersedeFor(record, delivery.receivedAt) : [];
    if (delivery.coalesce) {
      const timing = coalescedTiming(delivery.receivedAt, delivery.coalesce, ended);
      record.nextAttemptAt = timing.nextAttemptAt;
      record.burstStartedAt = timing.burstStartedAt;
      record.coalesced = timing.coalesced;
    }
    const superseded = ended.map((row) => row.id);
    this.deliveries.set(record.id, record);
    this.writeLifecycle(outbound, 'accepted', record, delivery.receivedAt);
    for (const row of ended) this.writeLifecycle(outbound, 'superseded', row, delivery.receivedAt);
    return {
      accepted: true,
      record: structuredClone(record),
      ...(superseded.length > 0 ? { superseded } : {}),
    };
  }

  async recover(): Promise<number> {
    this.assertOpen();
    let count = 0;
    for (const record of this.deliveries.values()) {
      if (record.status === 'running') {
        record.status = 'queued';
        this.closeAttempt(record, Date.now(), INTERRUPTED_ERROR);
        count++;
      }
    }
    return count;
  }

  async queued(afterSeq: number, limit: number): Promise<QueuedDelivery[]> {
    this.assertOpen();
    const rows = [...this.deliveries.values()]
      .filter((r) => r.status === 'queued' && r.seq > afterSeq)
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit);
    return rows.map(({ id, seq, route, deliveryId, orderKey, nextAttemptAt, attempts }) => ({
      id,
      seq,
      route,
      deliveryId,
      orderKey,
      nextAttemptAt,
      attempts,
    }));
  }

  async get(id: string): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    const record = this.find(id);
    return record ? structuredClone(record) : undefined;
  }

  async lastDelivered(orderKey: string, exceptId: string): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    let newest: DeliveryRecord | undefined;
    for (const record of this.deliveries.values()) {
      if (record.orderKey !== orderKey || record.id === exceptId) continue;
      if (record.status !== 'delivered') continue;
      if (!newest || record.seq > newest.seq) newest = record;
    }
    return newest ? structuredClone(newest) : undefined;
  }

  async list(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    this.assertOpen();
    const rows = [...this.deliveries.values()]
      .filter(
        (r) =>
          (!filter.route || r.route === filter.route) &&
          (!filter.status || r.status === filter.status),
      )
      .sort((a, b) => b.seq - a.seq)
      .slice(0, filter.limit ?? 50);
    return rows.map((r) => structuredClone(r));
  }

  async outlines(receivedSince: number, limit: number): Promise<DeliveryOutline[]> {
    this.assertOpen();
    return [...this.deliveries.values()]
      .filter((r) => r.receivedAt >= receivedSince)
      .sort((a, b) => b.seq - a.seq)
      .slice(0, Math.max(0, limit))
      .map((r) =>
        structuredClone({
          id: r.id,
          route: r.route,
          status: r.status,
          receivedAt: r.receivedAt,
          attemptLog: r.attemptLog,
          agent: r.agent,
        }),
      );
  }

  async markRunning(id: string, now: number): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    const record = this.deliveries.get(id);
    if (!record || record.status === 'superseded') return undefined;
    record.status = 'running';
    record.attempts += 1;
    record.startedAt ??= now;
    record.attemptLog.push({
      attempt: record.attemptLog.length + 1,
      startedAt: now,
      finishedAt: null,
      error: null,
    });
    return structuredClone(record);
  }

  async saveProgress(id: string, progress: DeliveryProgress): Promise<void> {
    this.assertOpen();
    const record = this.deliveries.get(id);
    if (record) {
      if (progress.prompt !== undefined) record.prompt = progress.prompt;
      if (progress.answer !== undefined) record.answer = progress.answer;
      if (progress.agent !== undefined) record.agent = structuredClone(progress.agent);
      if (progress.lineComments !== undefined)
        record.lineComments = structuredClone(progress.lineComments);
      if (progress.conclusion !== undefined)
        record.conclusion = structuredClone(progress.conclusion);
      if (progress.partial !== undefined) record.partial = progress.partial;
      if (progress.safety !== undefined) record.safety = structuredClone(progress.safety);
    }
  }

  async markRetry(
    id: string,
    error: string,
    now: number,
    nextAttemptAt: number,
    outbound?: OutboundPlan,
  ): Promise<void> {
    this.assertOpen();
    const record = this.deliveries.get(id);
    if (record) {
      record.status = 'queued';
      record.lastError = error;
      record.nextAttemptAt = nextAttemptAt;
      this.closeAttempt(record, now, error);
      this.writeLifecycle(outbound, 'failed', record, now);
    }
  }

  async markDelivered(
    id: string,
    now: number,
    status: DeliveredStatus = 'delivered',
    outbound?: OutboundPlan,
  ): Promise<void> {
    this.assertOpen();
    const record = this.deliveries.get(id);
    if (record) {
      record.status = status;
      record.finishedAt = now;
      this.closeAttempt(record, now, null);
      this.writeLifecycle(outbound, status, record, now);
    }
  }

  async markRefused(
    id: string,
    status: NotRunStatus,
    reason: string,
    now: number,
    outbound?: OutboundPlan,
  ): Promise<void> {
    this.assertOpen();
    const record = this.deliveries.get(id);
    if (record) {
      record.status = status;
      record.lastError = reason;
      record.finishedAt = now;
      this.closeAttempt(record, now, reason);
      this.writeLifecycle(outbound, status, record, now);
    }
  }

  async markFailed(id: string, error: string, now: number, outbound?: OutboundPlan): Promise<void> {
    this.assertOpen();
    const record = this.deliveries.get(id);
    if (record) {
      record.status = 'failed';
      record.lastError = error;
      record.finishedAt = now;
      this.closeAttempt(record, now, error);
      // Only this row's own key: a newer row with the same delivery id keeps its key.
      const key = idempotencyKey(record);
      if (this.keys.get(key)?.id === record.id) this.keys.delete(key);
      this.writeLifecycle(outbound, 'dead', record, now);
    }
  }

  async replay(id: string, now: number): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    const record = this.find(id);
    if (!record) return undefined;
    record.status = 'queued';
    delete record.supersededBy;
    record.attempts = 0;
    record.answer = null;
    delete record.lineComments;
    delete record.conclusion;
    delete record.partial;
    delete record.safety;
    record.lastError = null;
    record.finishedAt = null;
    record.nextAttemptAt = now;
    record.seq = ++this.seq;
    return structuredClone(record);
  }

  async prune(olderThan: number, now: number): Promise<{ deliveries: number; keys: number }> {
    this.assertOpen();
    let deliveries = 0;
    let keys = 0;
    for (const [id, record] of this.deliveries) {
      if (record.finishedAt !== null && record.finishedAt < olderThan) {
        this.deliveries.delete(id);
        deliveries++;
      }
    }
    for (const [key, held] of this.keys) {
      if (held.expiresAt <= now) {
        this.keys.delete(key);
        keys++;
      }
    }
    return { deliveries, keys };
  }

  /** By name, as the other stores list them. */
  async listSubscriptions(): Promise<Subscription[]> {
    this.assertOpen();
    return [...this.subscriptions.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((s) => structuredClone(s));
  }

  async getSubscription(name: string): Promise<Subscription | undefined> {
    this.assertOpen();
    const found = this.subscriptions.get(name);
    return found ? structuredClone(found) : undefined;
  }

  async putSubscription(subscription: Subscription): Promise<void> {
    this.assertOpen();
    this.subscriptions.set(subscription.name, structuredClone(subscription));
  }

  async removeSubscription(name: string): Promise<boolean> {
    this.assertOpen();
    return this.subscriptions.delete(name);
  }

  async journaledDeliveryIds(route: string, deliveryIds: readonly string[]): Promise<Set<string>> {
    this.assertOpen();
    const wanted = new Set(deliveryIds);
    const found = new Set<string>();
    for (const record of this.deliveries.values()) {
      if (record.route === route && wanted.has(record.deliveryId)) found.add(record.deliveryId);
    }
    return found;
  }

  async readCursor(name: string): Promise<string | undefined> {
    this.assertOpen();
    return this.cursors.get(name);
  }

  async writeCursor(name: string, value: string): Promise<void> {
    this.assertOpen();
    this.cursors.set(name, value);
  }

  async pauses(): Promise<Pause[]> {
    this.assertOpen();
    return [...this.pausesByRoute.values()].map((pause) => ({ ...pause }));
  }

  async pause(
    route: string | null,
    reason: string | null,
    now: number,
  ): Promise<{ pause: Pause; added: boolean }> {
    this.assertOpen();
    const held = this.pausesByRoute.get(route);
    if (held) return { pause: { ...held }, added: false };
    const pause = { route, reason, since: now };
    this.pausesByRoute.set(route, pause);
    return { pause: { ...pause }, added: true };
  }

  async resume(route: string | null): Promise<boolean> {
    this.assertOpen();
    return this.pausesByRoute.delete(route);
  }

  async findings(orderKey: string): Promise<Finding[]> {
    this.assertOpen();
    return structuredClone(this.findingsByRequest.get(orderKey) ?? []);
  }

  async saveFindings(orderKey: string, findings: readonly Finding[]): Promise<void> {
    this.assertOpen();
    this.findingsByRequest.set(orderKey, structuredClone([...findings]));
  }

  async enqueueOutbox(messages: readonly NewOutboxMessage[]): Promise<void> {
    this.assertOpen();
    for (const message of messages) this.addToOutbox(message);
  }

  async claimOutbox(now: number, leaseMs: number, limit: number): Promise<OutboxClaim> {
    this.assertOpen();
    let expired = 0;
    for (const [id, entry] of this.outbox) {
      if (entry.message.expiresAt <= now) {
        this.outbox.delete(id);
        expired++;
      }
    }
    const due = [...this.outbox.values()]
      .filter((entry) => entry.dueAt <= now)
      .sort((a, b) => a.dueAt - b.dueAt)
      .slice(0, Math.max(0, limit));
    const claim = randomUUID();
    for (const entry of due) {
      entry.dueAt = now + leaseMs;
      entry.message.claim = claim;
    }
    return { messages: due.map((entry) => structuredClone(entry.message)), expired };
  }

  async settleOutbox(
    message: Pick<OutboxMessage, 'id' | 'claim'>,
    outcome: OutboxOutcome,
  ): Promise<boolean> {
    this.assertOpen();
    const entry = this.outbox.get(message.id);
    if (!entry || message.claim === '' || entry.message.claim !== message.claim) return false;
    if (outcome.kind === 'done') {
      this.outbox.delete(message.id);
      return true;
    }
    entry.dueAt = outcome.at;
    entry.message.claim = '';
    if (outcome.kind === 'retry') {
      entry.message.attempts += 1;
      entry.message.lastError = outcome.error;
    }
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** The change's lifecycle messages, written with it (`Store` on outbound plans). */
  private writeLifecycle(
    outbound: OutboundPlan | undefined,
    event: LifecycleEvent,
    record: DeliveryRecord,
    now: number,
  ): void {
    for (const message of lifecycleMessages(outbound, event, record, now)) {
      this.addToOutbox(message);
    }
  }

  private addToOutbox(message: NewOutboxMessage): void {
    if (this.outbox.has(message.id)) return;
    this.outbox.set(message.id, {
      message: { ...message, attempts: 0, lastError: null, claim: '' },
      dueAt: message.createdAt,
    });
  }

  /** Ends the rows `newer` supersedes (see `Store.accept`); returns them. */
  private supersedeFor(newer: DeliveryRecord, now: number): DeliveryRecord[] {
    if (newer.orderKey === null) return [];
    const ended: DeliveryRecord[] = [];
    for (const record of this.deliveries.values()) {
      if (record.orderKey !== newer.orderKey || !isSupersedable(record)) continue;
      record.status = 'superseded';
      record.supersededBy = newer.id;
      record.finishedAt = now;
      ended.push(record);
    }
    return ended;
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

  private assertOpen(): void {
    if (this.closed) throw new Error('the memory store is closed; open a new one to use it');
  }

  private closeAttempt(record: DeliveryRecord, now: number, error: string | null): void {
    const last = record.attemptLog.at(-1);
    if (last && last.finishedAt === null) {
      last.finishedAt = now;
      last.error = error;
    }
  }
}

/** A message of the outbox and when it is due (a claim's lease end while claimed). */
interface OutboxEntry {
  message: OutboxMessage;
  dueAt: number;
}

function idempotencyKey(delivery: Pick<NewDelivery, 'route' | 'deliveryId'>): string {
  return `${delivery.route}\0${delivery.deliveryId}`;
}

/** A copy through JSON, as the real stores keep it (`journalJson` refuses what has no JSON form). */
function jsonCopy<T>(value: T, what: string, delivery: NewDelivery): T {
  return JSON.parse(journalJson(value, what, delivery)) as T;
}
