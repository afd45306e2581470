/**
 * The embedded durable store: a journal of deliveries, idempotency keys and subscriptions in
 * one SQLite file, shared by the running gateway and the CLI. Semantics follow core's
 * `MemoryStore`; every method that changes state returns after its transaction is committed.
 */
import type {
  QueuedDelivery,
  AcceptResult,
  DeliveryProgress,
  DeliveryFilter,
  DeliveryOutline,
  DeliveryRecord,
  Finding,
  NewDelivery,
  NotRunStatus,
  DeliveredStatus,
  LifecycleEvent,
  NewOutboxMessage,
  OutboundPlan,
  OutboxClaim,
  OutboxMessage,
  OutboxOutcome,
  Pause,
  Store,
  Subscription,
} from '@webhook-gateway/core';
import {
  findingsSchema,
  jsonTextSchema,
  journalJson,
  queuedRecord,
  closeAttempt,
  coalescedTiming,
  lifecycleMessages,
  wantsLifecycle,
} from '@webhook-gateway/core/store-kit';
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { BackgroundCheckpointer } from './checkpointer.js';
import { openDatabase } from './connection.js';
import { BUSY_TIMEOUT_MS, type SqliteStoreOptions } from './store-options.js';
import { GroupCommit } from './group-commit.js';
import { journalId } from './journal-id.js';
import {
  deliveryFromRow,
  outboxFromRow,
  outlineFromRow,
  pauseFromRow,
  pauseRouteKey,
  queuedFromRow,
  subscriptionFromRow,
  supersededFromRow,
  subscriptionToRow,
} from './rows.js';
import {
  prepareStatements,
  type DeliveryInsert,
  type ProgressParams,
  type Statements,
} from './statements.js';

/** An accept waiting for its batch: the row to insert, serialized before the batch runs. */
interface PendingAccept {
  delivery: NewDelivery;
  row: Omit<DeliveryInsert, 'id' | 'seq' | 'key_expires_at'>;
  payload: string;
  windowMs: number;
  outbound: OutboundPlan | undefined;
}

/** One statement of a status change: runs it, says whether a row changed. */
type StatusChange = () => { changes: number };

/** A `saveProgress` waiting for its batch; later saves of the row may join its parameters. */
interface PendingProgress {
  params: ProgressParams;
  saved?: Promise<unknown>;
}

/** One write of a group commit, run inside the batch's transaction. */
type WriteOp = () => unknown;

/** A write of a batch that failed on its own: its caller is rejected, the rest commit. */
class FailedWrite {
  constructor(readonly error: unknown) {}
}

/** What an attempt cut short by a stop or crash is recorded with when `recover()` requeues it. */
export const INTERRUPTED_ATTEMPT_ERROR = 'interrupted: the gateway stopped during this attempt';

const DEFAULT_LIST_LIMIT = 50;

/**
 * A `Store` on a SQLite file in WAL mode.
 *
 * @example
 * const store = openSqliteStore({ path: storeDefaultPath(home) });
 * const result = await store.accept(delivery, 3_600_000);
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  /** The database file. */
  readonly path: string;
  private readonly db: Database.Database;
  private readonly statements: Statements;
  /**
   * The group commit of every hot-path write: accepts and the workers' updates of one tick share
   * one transaction (one COMMIT, and a row changed twice is written to the WAL once).
   */
  private readonly writes: GroupCommit<WriteOp, unknown>;
  /** Prepared once; runs inside the batch, where it becomes a savepoint. */
  private readonly markRunningTx: (id: string, now: number) => DeliveryRecord | undefined;
  /**
   * A status change and the lifecycle events it writes, in one savepoint of the batch: both or
   * neither (`Store` on outbound plans).
   */
  private readonly changeWithEventsTx: (
    change: StatusChange,
    id: string,
    outbound: OutboundPlan,
    event: LifecycleEvent,
    now: number,
  ) => void;
  /** Drops the expired messages and claims due ones, in one savepoint. */
  private readonly claimOutboxTx: (
    now: number,
    leaseMs: number,
    limit: number,
  ) => { expired: number; rows: unknown[] };
  /**
   * The last seq handed out in the open transaction; read at its first `nextSeq()` and written
   * back once at its end, so a batch of accepts updates the counter once, not once each.
   */
  private lastSeq: number | undefined;
  private readonly checkpointer: BackgroundCheckpointer | undefined;
  /**
   * A row's `saveProgress` still waiting for its batch, when nothing else about the row was
   * submitted after it: a second save (the answer after the prompt) joins it, one UPDATE.
   */
  private readonly pendingProgress = new Map<string, PendingProgress>();
  private closed = false;

  constructor(options: SqliteStoreOptions) {
    this.path = options.path;
    this.db = openDatabase(options);
    this.statements = prepareStatements(this.db);
    this.checkpointer =
      options.backgroundCheckpoints && options.path !== ':memory:'
        ? this.startCheckpointer(options)
        : undefined;
    const commitWrites = this.transaction((batch: readonly WriteOp[]) => batch.map((op) => op()));
    // IMMEDIATE: take the write lock up front, so a busy file means waiting, not failing.
    this.writes = new GroupCommit(
      (batch) => commitWrites.immediate(batch),
      this.checkpointer && {
        enter: () => this.checkpointer?.enterCommit() ?? true,
        leave: () => this.checkpointer?.leaveCommit(),
      },
    );
    const { markRunning } = this.statements;
    // The attempt log changes in SQL, then the row is read back. A damaged row throws and its
    // savepoint is rolled back, so nothing changes, as when it was read first.
    this.markRunningTx = this.db.transaction((id: string, now: number) => {
      if (markRunning.run({ id, now }).changes === 0) return undefined;
      return this.readById(id);
    });
    this.changeWithEventsTx = this.db.transaction(
      (
        change: StatusChange,
        id: string,
        outbound: OutboundPlan,
        event: LifecycleEvent,
        now: number,
      ) => {
        if (change().changes > 0) this.writeLifecycle(outbound, event, id, now);
      },
    );
    this.claimOutboxTx = this.db.transaction((now: number, leaseMs: number, limit: number) => {
      const expired = this.statements.dropExpiredOutbox.run({ now }).changes;
      const rows = this.statements.claimOutbox.all({
        now,
        limit,
        claim: randomUUID(),
        lease_end: now + leaseMs,
      });
      return { expired, rows };
    });
  }

  async accept(
    delivery: NewDelivery,
    windowMs: number,
    outbound?: OutboundPlan,
  ): Promise<AcceptResult> {
    this.assertOpen();
    const row = {
      route: delivery.route,
      event: delivery.event,
      action: delivery.action,
      delivery_id: delivery.deliveryId,
      received_at: delivery.receivedAt,
      headers: journalJson(delivery.headers, 'headers', delivery),
      auth_scheme: delivery.authScheme ?? null,
      trace_context: delivery.traceContext ?? null,
      order_key: delivery.orderKey,
      max_attempts: delivery.maxAttempts,
      next_attempt_at: delivery.receivedAt,
    };
    // The text as received when the receiver kept it: the same JSON, not serialised again.
    const payload = delivery.payloadJson ?? journalJson(delivery.payload, 'payload', delivery);
    const pending: PendingAccept = { delivery, row, payload, windowMs, outbound };
    // An accept that throws fails its whole batch (nothing of it is committed).
    return this.writes.submit(() => this.acceptOne(pending)) as Promise<AcceptResult>;
  }

  async recover(): Promise<number> {
    this.assertOpen();
    return this.write(() => {
      const interrupted = this.statements.running.all().map(deliveryFromRow);
      for (const record of interrupted) {
        const attemptLog = closeAttempt(record.attemptLog, Date.now(), INTERRUPTED_ATTEMPT_ERROR);
        this.statements.requeue.run({ id: record.id, attempt_log: JSON.stringify(attemptLog) });
      }
      return interrupted.length;
    });
  }

  async queued(afterSeq: number, limit: number): Promise<QueuedDelivery[]> {
    this.assertOpen();
    this.settle();
    return this.statements.queued.all(afterSeq, limit).map(queuedFromRow);
  }

  async get(id: string): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    this.settle();
    return this.find(id);
  }

  async lastDelivered(orderKey: string, exceptId: string): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    this.settle();
    const row = this.statements.lastDelivered.get({ order_key: orderKey, except_id: exceptId });
    return row === undefined ? undefined : deliveryFromRow(row);
  }

  async list(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    this.assertOpen();
    this.settle();
    const limit = filter.limit ?? DEFAULT_LIST_LIMIT;
    const { list } = this.statements;
    const { route, status } = filter;
    const rows =
      route && status
        ? list.byRouteAndStatus.all({ route, status, limit })
        : route
          ? list.byRoute.all({ route, limit })
          : status
            ? list.byStatus.all({ status, limit })
            : list.all.all({ limit });
    return rows.map(deliveryFromRow);
  }

  async outlines(receivedSince: number, limit: number): Promise<DeliveryOutline[]> {
    this.assertOpen();
    this.settle();
    if (limit <= 0) return [];
    return this.statements.outlines.all({ since: receivedSince, limit }).map(outlineFromRow);
  }

  async markRunning(id: string, now: number): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    return this.batched(id, () => this.markRunningTx(id, now));
  }

  async saveProgress(id: string, progress: DeliveryProgress): Promise<void> {
    this.assertOpen();
    const params = {
      id,
      prompt: progress.prompt ?? null,
      answer: progress.answer ?? null,
      agent: progress.agent === undefined ? null : JSON.stringify(progress.agent),
      line_comments:
        progress.lineComments === undefined ? null : JSON.stringify(progress.lineComments),
      conclusion: progress.conclusion === undefined ? null : JSON.stringify(progress.conclusion),
      partial: progress.partial ? 1 : null,
      safety: progress.safety === undefined ? null : JSON.stringify(progress.safety),
    };
    const waiting = this.pendingProgress.get(id);
    if (waiting?.saved) {
      // Later values win, as the second UPDATE would have made them; null keeps the column.
      const merged = waiting.params;
      merged.prompt = params.prompt ?? merged.prompt;
      merged.answer = params.answer ?? merged.answer;
      merged.agent = params.agent ?? merged.agent;
      merged.line_comments = params.line_comments ?? merged.line_comments;
      merged.conclusion = params.conclusion ?? merged.conclusion;
      merged.partial = params.partial ?? merged.partial;
      merged.safety = params.safety ?? merged.safety;
      await waiting.saved;
      return;
    }
    const entry: PendingProgress = { params };
    const saved = this.batched(id, () => {
      this.forgetProgress(id, entry);
      return this.statements.saveProgress.run(entry.params);
    });
    entry.saved = saved;
    this.pendingProgress.set(id, entry);
    // A batch that failed before running it: a later save must not join a rejected one.
    saved.catch(() => this.forgetProgress(id, entry));
    await saved;
  }

  // The updates below never read the row: one statement each (the attempt log is closed in SQL),
  // atomic on its own, and a no-op for an unknown id.
  async markRetry(
    id: string,
    error: string,
    now: number,
    nextAttemptAt: number,
    outbound?: OutboundPlan,
  ): Promise<void> {
    this.assertOpen();
    const params = { id, error, now, next_attempt_at: nextAttemptAt };
    await this.statusChange(id, now, outbound, 'failed', () =>
      this.statements.markRetry.run(params),
    );
  }

  async markDelivered(
    id: string,
    now: number,
    status: DeliveredStatus = 'delivered',
    outbound?: OutboundPlan,
  ): Promise<void> {
    this.assertOpen();
    await this.statusChange(id, now, outbound, status, () =>
      this.statements.markDelivered.run({ id, now, status, error: null }),
    );
  }

  async markRefused(
    id: string,
    status: NotRunStatus,
    reason: string,
    now: number,
    outbound?: OutboundPlan,
  ): Promise<void> {
    this.assertOpen();
    await this.statusChange(id, now, outbound, status, () =>
      this.statements.markRefused.run({ id, now, status, error: reason }),
    );
  }

  async markFailed(id: string, error: string, now: number, outbound?: OutboundPlan): Promise<void> {
    this.assertOpen();
    // The failure releases the row's key: the sender's manual redelivery of this id runs again.
    await this.statusChange(id, now, outbound, 'dead', () =>
      this.statements.markFailed.run({ id, now, error }),
    );
  }

  async replay(id: string, now: number): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    return this.write(() => {
      const record = this.find(id);
      if (!record) return undefined;
      // A new, higher seq: a running gateway polling past its cursor picks the row up.
      this.statements.replay.run({ id: record.id, seq: this.nextSeq(), now });
      return this.readById(record.id);
    });
  }

  async prune(olderThan: number, now: number): Promise<{ deliveries: number; keys: number }> {
    this.assertOpen();
    return this.write(() => ({
      deliveries: this.statements.pruneDeliveries.run({ older_than: olderThan, now }).changes,
      // Keys live on their rows: an expired one is only a past date, nothing to drop.
      keys: 0,
    }));
  }

  async listSubscriptions(): Promise<Subscription[]> {
    this.assertOpen();
    return this.statements.listSubscriptions.all().map(subscriptionFromRow);
  }

  async getSubscription(name: string): Promise<Subscription | undefined> {
    this.assertOpen();
    const row = this.statements.getSubscription.get(name);
    return row === undefined ? undefined : subscriptionFromRow(row);
  }

  async putSubscription(subscription: Subscription): Promise<void> {
    this.assertOpen();
    this.settle();
    this.statements.putSubscription.run(subscriptionToRow(subscription));
  }

  async removeSubscription(name: string): Promise<boolean> {
    this.assertOpen();
    this.settle();
    return this.statements.removeSubscription.run(name).changes > 0;
  }

  async journaledDeliveryIds(route: string, deliveryIds: readonly string[]): Promise<Set<string>> {
    this.assertOpen();
    this.settle();
    const found = this.statements.journaledDeliveryIds.all({
      route,
      ids: JSON.stringify(deliveryIds),
    }) as string[];
    return new Set(found);
  }

  async readCursor(name: string): Promise<string | undefined> {
    this.assertOpen();
    const value = this.statements.readCursor.get(name) as string | undefined;
    return value;
  }

  async writeCursor(name: string, value: string): Promise<void> {
    this.assertOpen();
    await this.batched(undefined, () => this.statements.writeCursor.run({ name, value }));
  }

  async pauses(): Promise<Pause[]> {
    this.assertOpen();
    this.settle();
    return this.statements.readPauses.all().map(pauseFromRow);
  }

  async pause(
    route: string | null,
    reason: string | null,
    now: number,
  ): Promise<{ pause: Pause; added: boolean }> {
    this.assertOpen();
    const key = pauseRouteKey(route);
    return this.batched(undefined, () => {
      const added = this.statements.addPause.run({ route: key, reason, since: now }).changes > 0;
      return { pause: pauseFromRow(this.statements.readPause.get(key)), added };
    });
  }

  async resume(route: string | null): Promise<boolean> {
    this.assertOpen();
    return this.batched(
      undefined,
      () => this.statements.removePause.run(pauseRouteKey(route)).changes > 0,
    );
  }

  async findings(orderKey: string): Promise<Finding[]> {
    this.assertOpen();
    this.settle();
    const text = this.statements.readFindings.get(orderKey) as string | undefined;
    return text === undefined ? [] : jsonTextSchema(findingsSchema).parse(text);
  }

  async saveFindings(orderKey: string, findings: readonly Finding[]): Promise<void> {
    this.assertOpen();
    await this.batched(undefined, () =>
      this.statements.writeFindings.run({
        order_key: orderKey,
        findings: JSON.stringify(findings),
      }),
    );
  }

  async enqueueOutbox(messages: readonly NewOutboxMessage[]): Promise<void> {
    this.assertOpen();
    if (messages.length === 0) return;
    await this.batched(undefined, () => {
      for (const message of messages) this.insertOutbox(message);
    });
  }

  async claimOutbox(now: number, leaseMs: number, limit: number): Promise<OutboxClaim> {
    this.assertOpen();
    const { expired, rows } = await this.batched(undefined, () =>
      this.claimOutboxTx(now, leaseMs, limit),
    );
    return { expired, messages: rows.map(outboxFromRow) };
  }

  async settleOutbox(
    message: Pick<OutboxMessage, 'id' | 'claim'>,
    outcome: OutboxOutcome,
  ): Promise<boolean> {
    this.assertOpen();
    const { id, claim } = message;
    const { settleOutboxDone, settleOutboxRetry, settleOutboxDefer } = this.statements;
    const result = await this.batched(undefined, () =>
      outcome.kind === 'done'
        ? settleOutboxDone.run({ id, claim })
        : outcome.kind === 'retry'
          ? settleOutboxRetry.run({ id, claim, at: outcome.at, error: outcome.error })
          : settleOutboxDefer.run({ id, claim, at: outcome.at }),
    );
    return result.changes > 0;
  }

  /** Commits the writes still waiting for their batch, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.writes.flush();
    this.closed = true;
    await this.checkpointer?.stop();
    this.db.close();
  }

  private startCheckpointer(options: SqliteStoreOptions): BackgroundCheckpointer {
    const checkpointer = new BackgroundCheckpointer({
      path: options.path,
      fsync: options.fsync ?? false,
      busyTimeoutMs: BUSY_TIMEOUT_MS,
      onFailure: (error) => {
        // Slower, never wrong: the commits checkpoint again, as SQLite does by default.
        if (!this.closed) this.db.pragma('wal_autocheckpoint = 1000');
        process.emitWarning(
          `the journal's background checkpoints stopped (${error.message}); commits checkpoint instead`,
        );
      },
    });
    this.db.pragma('wal_autocheckpoint = 0');
    return checkpointer;
  }

  /** Runs inside the batch transaction: de-duplicate, then journal. */
  private acceptOne({ delivery, row, payload, windowMs, outbound }: PendingAccept): AcceptResult {
    const live = this.statements.liveKey.get({
      route: delivery.route,
      delivery_id: delivery.deliveryId,
      now: delivery.receivedAt,
    });
    if (live !== undefined) return { accepted: false, reason: 'duplicate' };
    const id = journalId(delivery.receivedAt);
    const seq = this.nextSeq();
    const keyExpiresAt = delivery.receivedAt + windowMs;
    this.statements.insertDelivery.run({ ...row, id, seq, key_expires_at: keyExpiresAt });
    this.statements.insertPayload.run({ id, payload });
    const record = queuedRecord(delivery, id, seq);
    let superseded: string[] = [];
    if (delivery.supersede && delivery.orderKey !== null) {
      const params = { order_key: delivery.orderKey, id, now: delivery.receivedAt };
      const ended = this.statements.supersede.all(params).map(supersededFromRow);
      superseded = ended.map((row) => row.id);
      if (delivery.coalesce) {
        const timing = coalescedTiming(delivery.receivedAt, delivery.coalesce, ended);
        this.statements.setCoalesced.run({
          id,
          next_attempt_at: timing.nextAttemptAt,
          burst_started_at: timing.burstStartedAt,
          coalesced: timing.coalesced,
        });
        Object.assign(record, timing);
      }
    }
    // The events of this accept, in its transaction: the new row's, then each ended row's.
    const at = delivery.receivedAt;
    for (const message of lifecycleMessages(outbound, 'accepted', record, at)) {
      this.insertOutbox(message);
    }
    if (wantsLifecycle(outbound, 'superseded')) {
      for (const endedId of superseded) this.writeLifecycle(outbound, 'superseded', endedId, at);
    }
    return superseded.length > 0
      ? { accepted: true, record, superseded }
      : { accepted: true, record };
  }

  /**
   * Runs a status change in the next group commit; when the plan wants its event, the change and
   * its events go in one savepoint, the events about the row as the change left it.
   */
  private async statusChange(
    id: string,
    now: number,
    outbound: OutboundPlan | undefined,
    event: LifecycleEvent,
    change: StatusChange,
  ): Promise<void> {
    await this.batched(id, () => {
      if (outbound && wantsLifecycle(outbound, event)) {
        this.changeWithEventsTx(change, id, outbound, event, now);
      } else change();
    });
  }

  /** Writes the row's lifecycle messages of `event`; inside a transaction. */
  private writeLifecycle(
    outbound: OutboundPlan | undefined,
    event: LifecycleEvent,
    id: string,
    now: number,
  ): void {
    const record = this.readById(id);
    if (!record) return;
    for (const message of lifecycleMessages(outbound, event, record, now)) {
      this.insertOutbox(message);
    }
  }

  private insertOutbox(message: NewOutboxMessage): void {
    this.statements.insertOutbox.run({
      id: message.id,
      destination: message.destination,
      body: message.body,
      created_at: message.createdAt,
      expires_at: message.expiresAt,
      trace_context: message.traceContext ?? null,
    });
  }

  /** The next seq of the journal; only inside a transaction made by `transaction()`. */
  private nextSeq(): number {
    if (this.lastSeq === undefined) {
      const seq: unknown = this.statements.lastSeq.get();
      if (typeof seq !== 'number') {
        throw new Error(
          `the journal's sequence counter is missing in ${this.path}; the file is damaged: restore it from a backup`,
        );
      }
      this.lastSeq = seq;
    }
    return ++this.lastSeq;
  }

  /** A transaction that writes the seqs it handed out back to the counter before it commits. */
  private transaction<Args extends unknown[], T>(
    change: (...args: Args) => T,
  ): Database.Transaction<(...args: Args) => T> {
    return this.db.transaction((...args: Args) => {
      try {
        const result = change(...args);
        if (this.lastSeq !== undefined) this.statements.saveLastSeq.run(this.lastSeq);
        return result;
      } finally {
        this.lastSeq = undefined;
      }
    });
  }

  private readById(id: string): DeliveryRecord | undefined {
    const row = this.statements.byId.get(id);
    return row === undefined ? undefined : deliveryFromRow(row);
  }

  /** By journal id, or by the sender's delivery id (the newest row with it). */
  private find(id: string): DeliveryRecord | undefined {
    const row = this.statements.byId.get(id) ?? this.statements.newestByDeliveryId.get(id);
    return row === undefined ? undefined : deliveryFromRow(row);
  }

  /** Runs `change` in one IMMEDIATE transaction: it waits for another writer rather than failing. */
  private write<T>(change: () => T): T {
    this.writes.flush();
    return this.transaction(change).immediate();
  }

  /**
   * Runs `change` (one statement, or a savepoint) in the next group commit; resolves with its
   * result once that batch is committed. Its own error rejects only its caller, unless it
   * ended the transaction (then the whole batch fails). `id` names the delivery row it changes:
   * a later `saveProgress` of that row no longer joins one submitted before this.
   */
  private async batched<T>(id: string | undefined, change: () => T): Promise<T> {
    if (id !== undefined) this.pendingProgress.delete(id);
    const outcome = await this.writes.submit(() => {
      try {
        return change();
      } catch (error) {
        if (!this.db.inTransaction) throw error;
        return new FailedWrite(error);
      }
    });
    if (outcome instanceof FailedWrite) throw outcome.error;
    return outcome as T;
  }

  private forgetProgress(id: string, entry: PendingProgress): void {
    if (this.pendingProgress.get(id) === entry) this.pendingProgress.delete(id);
  }

  /** Reads see every write made before them, as when each write committed at once. */
  private settle(): void {
    this.writes.flush();
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new Error(`the SQLite store at ${this.path} is closed; open it again to use it`);
    }
  }
}

/** Opens the journal at `options.path` (creating the file and its directory when missing). */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  return new SqliteStore(options);
}
