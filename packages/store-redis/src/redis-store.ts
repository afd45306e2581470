/**
 * The shared store: the journal, idempotency keys, subscriptions and rate limits in Redis, and a
 * BullMQ queue that several receivers feed and several workers drain. Semantics follow core's
 * `MemoryStore`; every method that changes state resolves once Redis has applied it.
 */
import { randomUUID } from 'node:crypto';
import type {
  AcceptResult,
  DeliveredStatus,
  DeliveryProgress,
  Finding,
  DeliveryFilter,
  DeliveryOutline,
  DeliveryRecord,
  LifecycleEvent,
  NewDelivery,
  NewOutboxMessage,
  NotRunStatus,
  OutboundPlan,
  OutboxClaim,
  OutboxMessage,
  OutboxOutcome,
  Pause,
  Store,
  Subscription,
} from '@webhook-gateway/core';
import {
  type DeliveryQueue,
  type QueueContext,
  agentAccountingSchema,
  attemptLogSchema,
  deliveryStatusSchema,
  findingsSchema,
  jsonTextSchema,
  lifecycleMessages,
  type LifecycleFacts,
  queuedRecord,
  wantsLifecycle,
} from '@webhook-gateway/core/store-kit';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { bullmqConnection, closeConnection, openCommandClient } from './connection.js';
import { RedisDeliveryQueue } from './delivery-queue.js';
import type { QueueJournal, RunView } from './queue-journal.js';
import { JobProducer } from './jobs.js';
import { ACCEPT, APPLY, PRUNE_ROW, SAVE_FIELDS } from './journal-scripts.js';
import { redisKeys, type RedisKeys } from './keys.js';
import { TAKE_LEASE } from './lease-script.js';
import { addPause, readPauses, removePause } from './pauses.js';
import { outboxClaimFromReply } from './outbox-records.js';
import { CLAIM_OUTBOX, ENQUEUE_OUTBOX, SETTLE_OUTBOX } from './outbox-scripts.js';
import {
  resolveRedisOptions,
  type RedisStoreOptions,
  type ResolvedRedisOptions,
} from './options.js';
import { RedisRateLimiter } from './rate-limiter.js';
import { addMissingJobs } from './reconcile.js';
import {
  deliveryFromHash,
  hashFromFlatReply,
  newDeliveryFields,
  publicRecord,
  subscriptionFromJson,
  subscriptionToJson,
  type StoredDelivery,
} from './records.js';
import {
  deliveredChange,
  failedChange,
  refusedChange,
  interruptedChange,
  outboxEntry,
  replayChange,
  retryChange,
  rowAfter,
  runningChange,
  type RowChange,
  type RowHead,
} from './row-changes.js';

const DEFAULT_LIST_LIMIT = 50;

/** The accept script's reply: the new seq, then the ids it superseded. */
const acceptReplySchema = z.tuple(
  [z.number().int(), z.number().int(), z.number().int(), z.number().int()],
  z.string(),
);
/** How often a guarded change is retried when another process changed the row meanwhile. */
const MAX_CHANGE_TRIES = 20;
const PRUNE_BATCH = 500;

const HEAD_FIELDS = [
  'id',
  'rev',
  'route',
  'deliveryId',
  'orderKey',
  'status',
  'attempts',
  'startedAt',
  'attemptLog',
] as const;

/** The fields of a row's outline (`Store.outlines`): no payload, prompt or answer. */
const OUTLINE_FIELDS = ['id', 'route', 'status', 'receivedAt', 'attemptLog', 'agent'] as const;
/** How many ids `outlines` reads per round trip. */
const OUTLINE_PAGE = 500;

const optionalInt = z
  .string()
  .regex(/^-?\d+$/)
  .transform(Number)
  .nullable();
const requiredInt = optionalInt.pipe(z.number());

const outlineSchema = z.tuple([
  z.string(),
  z.string(),
  deliveryStatusSchema,
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
  jsonTextSchema(attemptLogSchema),
  jsonTextSchema(agentAccountingSchema).nullable(),
]);

const headSchema = z.tuple([
  z.string(),
  requiredInt,
  z.string(),
  z.string(),
  z.string().nullable(),
  deliveryStatusSchema,
  requiredInt,
  optionalInt,
  z
    .string()
    .transform((text): unknown => JSON.parse(text))
    .pipe(attemptLogSchema),
]);

const SCHEDULE_FIELDS = [
  'id',
  'seq',
  'status',
  'attempts',
  'maxAttempts',
  'nextAttemptAt',
  'route',
  'orderKey',
  'deliveryId',
] as const;

const scheduleSchema = z.tuple([
  z.string(),
  requiredInt,
  deliveryStatusSchema,
  requiredInt,
  requiredInt,
  requiredInt,
  z.string(),
  z.string().nullable(),
  z.string(),
]);

/**
 * A `Store` on Redis, shared by receivers, workers and the CLI.
 *
 * @example
 * const store = await openRedisStore({ url: 'redis://127.0.0.1:6379' });
 * const result = await store.accept(delivery, 3_600_000);
 */
export class RedisStore implements Store, QueueJournal {
  readonly kind = 'redis';
  /** The per-route rate limit, one window for all receivers. */
  readonly rateLimiter: RedisRateLimiter;
  readonly keys: RedisKeys;
  /** BullMQ jobs of the journal rows (used by replay, the queue and the sweep). */
  readonly jobs: JobProducer;
  private closed = false;
  /** This store's name as a lease holder. */
  private readonly leaseToken = randomUUID();

  constructor(
    /** The command connection; the store closes it. */
    readonly client: Redis,
    readonly options: ResolvedRedisOptions,
  ) {
    this.keys = redisKeys(options.prefix);
    this.rateLimiter = new RedisRateLimiter(client, this.keys);
    this.jobs = new JobProducer(() => bullmqConnection(client, 'producer'), options);
  }

  async accept(
    delivery: NewDelivery,
    windowMs: number,
    outbound?: OutboundPlan,
  ): Promise<AcceptResult> {
    this.assertOpen();
    const id = randomUUID();
    const fields = newDeliveryFields(delivery, id);
    const events = this.acceptEvents(delivery, id, outbound);
    const k = this.keys;
    const supersede = delivery.supersede === true && delivery.orderKey !== null;
    const reply = await ACCEPT.run(
      this.client,
      [
        k.idempotency(delivery.route, delivery.deliveryId),
        k.seq,
        k.delivery(id),
        k.all,
        k.status('queued'),
        k.route(delivery.route),
        k.routeStatus(delivery.route, 'queued'),
        k.deliveryId(delivery.deliveryId),
        k.orderLine(delivery.orderKey ?? ''),
        k.status('superseded'),
        k.routeStatus(delivery.route, 'superseded'),
        k.finished,
        k.outboxDue,
        k.outboxExpires,
      ],
      [
        Math.max(1, Math.round(windowMs)),
        id,
        delivery.orderKey === null ? '0' : '1',
        supersede ? '1' : '0',
        k.deliveryPrefix,
        delivery.receivedAt,
        Math.round(delivery.coalesce?.windowMs ?? 0),
        Math.round(delivery.coalesce?.maxWaitMs ?? 0),
        events,
        ...fields,
      ],
    );
    if (reply === null) return { accepted: false, reason: 'duplicate' };
    const parsed = acceptReplySchema.safeParse(reply);
    if (!parsed.success) throw new Error(`the accept script answered ${JSON.stringify(reply)}`);
    const [seq, nextAttemptAt, burstStartedAt, coalesced, ...superseded] = parsed.data;
    const record = queuedRecord(delivery, id, seq);
    // The script's `coalescedTiming`: when the row may start, its burst, what it replaced.
    if (delivery.coalesce) Object.assign(record, { nextAttemptAt, burstStartedAt, coalesced });
    return superseded.length > 0
      ? { accepted: true, record, superseded }
      : { accepted: true, record };
  }

  /**
   * Nothing is "left running by a crash" the way the embedded store knows it: other workers may be
   * running those rows right now, and BullMQ hands a dead worker's jobs to a live one. What a crash
   * can leave is a row without a job (see reconcile.ts); this adds those jobs and returns how many.
   */
  async recover(): Promise<number> {
    this.assertOpen();
    return addMissingJobs(this, this.jobs, Date.now());
  }

  async queued(afterSeq: number, limit: number): Promise<DeliveryRecord[]> {
    this.assertOpen();
    const ids = await this.client.zrangebyscore(
      this.keys.status('queued'),
      `(${afterSeq}`,
      '+inf',
      'LIMIT',
      0,
      limit,
    );
    return this.readMany(ids);
  }

  async get(id: string): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    const found = await this.find(id);
    return found ? publicRecord(found) : undefined;
  }

  async lastDelivered(orderKey: string, exceptId: string): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    const newest = await this.client.zrevrange(this.keys.deliveredLine(orderKey), 0, 1);
    const id = newest.find((candidate) => candidate !== exceptId);
    if (id === undefined) return undefined;
    const found = await this.read(id);
    return found ? publicRecord(found) : undefined;
  }

  async list(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    this.assertOpen();
    const limit = filter.limit ?? DEFAULT_LIST_LIMIT;
    if (limit <= 0) return [];
    const k = this.keys;
    const { route, status } = filter;
    const index =
      route && status
        ? k.routeStatus(route, status)
        : route
          ? k.route(route)
          : status
            ? k.status(status)
            : k.all;
    return this.readMany(await this.client.zrevrange(index, 0, limit - 1));
  }

  async outlines(receivedSince: number, limit: number): Promise<DeliveryOutline[]> {
    this.assertOpen();
    const outlines: DeliveryOutline[] = [];
    // Newest first by seq; a replayed row has a new seq and its old reception time, so rows
    // older than `receivedSince` may sit among newer ones: page on until the index ends.
    for (let start = 0; outlines.length < limit; start += OUTLINE_PAGE) {
      const ids = await this.client.zrevrange(this.keys.all, start, start + OUTLINE_PAGE - 1);
      if (ids.length === 0) break;
      const pipeline = this.client.pipeline();
      for (const id of ids) pipeline.hmget(this.keys.delivery(id), ...OUTLINE_FIELDS);
      const replies = (await pipeline.exec()) ?? [];
      for (const [index, [error, values]] of replies.entries()) {
        if (error) throw error;
        const outline = this.outlineOf(ids[index] ?? '', values);
        if (outline && outline.receivedAt >= receivedSince) outlines.push(outline);
        if (outlines.length >= limit) break;
      }
    }
    return outlines;
  }

  /** An `hmget` of `OUTLINE_FIELDS` as an outline; undefined for a row pruned meanwhile. */
  private outlineOf(id: string, values: unknown): DeliveryOutline | undefined {
    if (Array.isArray(values) && values[0] === null) return undefined;
    const parsed = outlineSchema.safeParse(values);
    if (!parsed.success) {
      throw new Error(
        `the journal row at Redis key "${this.keys.delivery(id)}" is damaged: ${parsed.error.issues[0]?.message ?? 'unreadable'}`,
      );
    }
    const [rowId, route, status, receivedAt, attemptLog, agent] = parsed.data;
    return { id: rowId, route, status, receivedAt, attemptLog, agent };
  }

  async markRunning(id: string, now: number): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    return this.change(id, (head) => runningChange(head, now));
  }

  async saveProgress(id: string, progress: DeliveryProgress): Promise<void> {
    this.assertOpen();
    const fields: string[] = [];
    if (progress.prompt !== undefined) fields.push('prompt', progress.prompt);
    if (progress.answer !== undefined) fields.push('answer', progress.answer);
    if (progress.agent !== undefined) fields.push('agent', JSON.stringify(progress.agent));
    if (progress.lineComments !== undefined)
      fields.push('lineComments', JSON.stringify(progress.lineComments));
    if (progress.conclusion !== undefined)
      fields.push('conclusion', JSON.stringify(progress.conclusion));
    if (progress.partial) fields.push('partial', '1');
    if (progress.safety !== undefined) fields.push('safety', JSON.stringify(progress.safety));
    if (fields.length === 0) return;
    await SAVE_FIELDS.run(this.client, [this.keys.delivery(id)], fields);
  }

  async markRetry(
    id: string,
    error: string,
    now: number,
    nextAttemptAt: number,
    outbound?: OutboundPlan,
  ): Promise<void> {
    this.assertOpen();
    await this.change(id, (head) => retryChange(head, error, now, nextAttemptAt), {
      outbound,
      event: 'failed',
      now,
    });
  }

  async markDelivered(
    id: string,
    now: number,
    status: DeliveredStatus = 'delivered',
    outbound?: OutboundPlan,
  ): Promise<void> {
    this.assertOpen();
    await this.change(id, (head) => deliveredChange(head, now, status), {
      outbound,
      event: status,
      now,
    });
  }

  async markRefused(
    id: string,
    status: NotRunStatus,
    reason: string,
    now: number,
    outbound?: OutboundPlan,
  ): Promise<void> {
    this.assertOpen();
    await this.change(id, (head) => refusedChange(head, status, reason, now), {
      outbound,
      event: status,
      now,
    });
  }

  async markFailed(id: string, error: string, now: number, outbound?: OutboundPlan): Promise<void> {
    this.assertOpen();
    await this.change(id, (head) => failedChange(head, error, now), {
      outbound,
      event: 'dead',
      now,
    });
  }

  /** Queues the row again under a new seq, with a new BullMQ job, so a worker picks it up now. */
  async replay(id: string, now: number): Promise<DeliveryRecord | undefined> {
    this.assertOpen();
    const found = await this.find(id);
    if (!found) return undefined;
    const record = await this.change(found.id, (head) => replayChange(head, now));
    if (!record) return undefined;
    try {
      await this.jobs.add(record);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `delivery ${record.id} is queued again in the journal, but its job could not be added (${reason}); a worker's sweep will add it`,
      );
    }
    return record;
  }

  /** Idempotency keys expire by themselves (PX), so `keys` is always 0. */
  async prune(olderThan: number, _now: number): Promise<{ deliveries: number; keys: number }> {
    this.assertOpen();
    let deliveries = 0;
    for (;;) {
      const ids = await this.client.zrangebyscore(
        this.keys.finished,
        '-inf',
        `(${olderThan}`,
        'LIMIT',
        0,
        PRUNE_BATCH,
      );
      if (ids.length === 0) break;
      const removed = await Promise.all(ids.map((id) => this.pruneRow(id, olderThan)));
      deliveries += removed.filter(Boolean).length;
      if (ids.length < PRUNE_BATCH || !removed.some(Boolean)) break;
    }
    return { deliveries, keys: 0 };
  }

  async listSubscriptions(): Promise<Subscription[]> {
    this.assertOpen();
    const all = await this.client.hgetall(this.keys.subscriptions);
    return Object.keys(all)
      .sort()
      .map((name) => subscriptionFromJson(all[name] ?? '', this.keys.subscriptions, name));
  }

  async getSubscription(name: string): Promise<Subscription | undefined> {
    this.assertOpen();
    const text = await this.client.hget(this.keys.subscriptions, name);
    return text === null ? undefined : subscriptionFromJson(text, this.keys.subscriptions, name);
  }

  async putSubscription(subscription: Subscription): Promise<void> {
    this.assertOpen();
    await this.client.hset(
      this.keys.subscriptions,
      subscription.name,
      subscriptionToJson(subscription),
    );
  }

  async removeSubscription(name: string): Promise<boolean> {
    this.assertOpen();
    return (await this.client.hdel(this.keys.subscriptions, name)) > 0;
  }

  /** Through the sender-id index: each row holding one of the ids, then that row's route. */
  async journaledDeliveryIds(route: string, deliveryIds: readonly string[]): Promise<Set<string>> {
    this.assertOpen();
    const unique = [...new Set(deliveryIds)];
    if (unique.length === 0) return new Set();
    const rowIds = await pipelined(
      this.client,
      unique.map((deliveryId) => ['zrange', this.keys.deliveryId(deliveryId), '0', '-1']),
    );
    const pairs = unique.flatMap((deliveryId, index) =>
      stringList(rowIds[index]).map((rowId) => ({ deliveryId, rowId })),
    );
    const routes = await pipelined(
      this.client,
      pairs.map(({ rowId }) => ['hget', this.keys.delivery(rowId), 'route']),
    );
    return new Set(pairs.filter((_, index) => routes[index] === route).map((p) => p.deliveryId));
  }

  async readCursor(name: string): Promise<string | undefined> {
    this.assertOpen();
    return (await this.client.hget(this.keys.cursors, name)) ?? undefined;
  }

  async writeCursor(name: string, value: string): Promise<void> {
    this.assertOpen();
    await this.client.hset(this.keys.cursors, name, value);
  }

  async findings(orderKey: string): Promise<Finding[]> {
    this.assertOpen();
    const text = await this.client.hget(this.keys.findings, orderKey);
    return text === null ? [] : jsonTextSchema(findingsSchema).parse(text);
  }

  async saveFindings(orderKey: string, findings: readonly Finding[]): Promise<void> {
    this.assertOpen();
    await this.client.hset(this.keys.findings, orderKey, JSON.stringify(findings));
  }

  async pauses(): Promise<Pause[]> {
    this.assertOpen();
    return readPauses(this.client, this.keys.pauses);
  }

  async pause(
    route: string | null,
    reason: string | null,
    now: number,
  ): Promise<{ pause: Pause; added: boolean }> {
    this.assertOpen();
    return addPause(this.client, this.keys.pauses, { route, reason, since: now });
  }

  async resume(route: string | null): Promise<boolean> {
    this.assertOpen();
    return removePause(this.client, this.keys.pauses, route);
  }

  /** Free or already ours: taken (or renewed) for `ttlMs`; another process's: refused. */
  async tryLease(name: string, ttlMs: number): Promise<boolean> {
    this.assertOpen();
    const held = await TAKE_LEASE.run(
      this.client,
      [this.keys.lease(name)],
      [this.leaseToken, Math.max(1, Math.round(ttlMs))],
    );
    return held === 1;
  }

  async enqueueOutbox(messages: readonly NewOutboxMessage[]): Promise<void> {
    this.assertOpen();
    if (messages.length === 0) return;
    await ENQUEUE_OUTBOX.run(
      this.client,
      [this.keys.outboxDue, this.keys.outboxExpires],
      [this.keys.outboxPrefix, JSON.stringify(messages.map(outboxEntry))],
    );
  }

  async claimOutbox(now: number, leaseMs: number, limit: number): Promise<OutboxClaim> {
    this.assertOpen();
    const k = this.keys;
    const reply = await CLAIM_OUTBOX.run(
      this.client,
      [k.outboxDue, k.outboxExpires],
      [now, now + leaseMs, Math.max(0, limit), randomUUID(), k.outboxPrefix],
    );
    return outboxClaimFromReply(reply, k.outboxPrefix);
  }

  async settleOutbox(
    message: Pick<OutboxMessage, 'id' | 'claim'>,
    outcome: OutboxOutcome,
  ): Promise<boolean> {
    this.assertOpen();
    const k = this.keys;
    const reply = await SETTLE_OUTBOX.run(
      this.client,
      [k.outbox(message.id), k.outboxDue, k.outboxExpires],
      [
        message.id,
        message.claim,
        outcome.kind,
        outcome.kind === 'done' ? 0 : outcome.at,
        outcome.kind === 'retry' ? outcome.error : '',
      ],
    );
    return reply === 1;
  }

  /** A BullMQ-backed queue; a `receiver` only adds jobs, `worker` and `all` also run them. */
  createQueue(context: QueueContext): DeliveryQueue {
    this.assertOpen();
    return new RedisDeliveryQueue(this, context);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.jobs.close();
    await closeConnection(this.client);
  }

  /** The fields a worker decides on, without the payload; undefined when the row is gone. */
  async runView(id: string): Promise<RunView | undefined> {
    const values = await this.client.hmget(this.keys.delivery(id), ...SCHEDULE_FIELDS);
    if (values[0] === null) return undefined;
    const parsed = scheduleSchema.safeParse(values);
    if (!parsed.success) {
      throw new Error(
        `the journal row at Redis key "${this.keys.delivery(id)}" is damaged: ${parsed.error.issues[0]?.message ?? 'unreadable'}`,
      );
    }
    const [rowId, seq, status, attempts, maxAttempts, nextAttemptAt, route, orderKey, deliveryId] =
      parsed.data;
    return {
      id: rowId,
      seq,
      status,
      attempts,
      maxAttempts,
      nextAttemptAt,
      route,
      orderKey,
      deliveryId,
    };
  }

  /** For the sweep: an unfinished row's schedule, undefined when it is gone or finished. */
  async schedule(id: string): Promise<RunView | undefined> {
    const view = await this.runView(id);
    return view && (view.status === 'queued' || view.status === 'running') ? view : undefined;
  }

  /** For the sweep: every queued and running row, `{ id, seq }`. */
  async unfinished(): Promise<{ id: string; seq: number }[]> {
    const rows: { id: string; seq: number }[] = [];
    for (const status of ['queued', 'running'] as const) {
      const flat = await this.client.zrange(this.keys.status(status), 0, -1, 'WITHSCORES');
      for (let i = 0; i + 1 < flat.length; i += 2) {
        rows.push({ id: flat[i] ?? '', seq: Number(flat[i + 1]) });
      }
    }
    return rows;
  }

  /** Puts a running row whose attempt a stop cut short back in the queue. */
  async requeueInterrupted(id: string, now: number): Promise<void> {
    this.assertOpen();
    await this.change(id, (head) => interruptedChange(head, now));
  }

  /** By journal id, or by the sender's delivery id (the newest row with it). */
  private async find(id: string): Promise<StoredDelivery | undefined> {
    const direct = await this.read(id);
    if (direct) return direct;
    const [newest] = await this.client.zrevrange(this.keys.deliveryId(id), 0, 0);
    return newest === undefined ? undefined : this.read(newest);
  }

  private async read(id: string): Promise<StoredDelivery | undefined> {
    const key = this.keys.delivery(id);
    const hash = await this.client.hgetall(key);
    return Object.keys(hash).length === 0 ? undefined : deliveryFromHash(hash, key);
  }

  /** Rows by id, in the given order; rows pruned meanwhile are left out. */
  private async readMany(ids: string[]): Promise<DeliveryRecord[]> {
    const rows = await Promise.all(ids.map((id) => this.read(id)));
    return rows.filter((row) => row !== undefined).map(publicRecord);
  }

  private async readHead(id: string): Promise<RowHead | undefined> {
    const values = await this.client.hmget(this.keys.delivery(id), ...HEAD_FIELDS);
    if (values[0] === null) return undefined;
    const parsed = headSchema.safeParse(values);
    if (!parsed.success) {
      throw new Error(
        `the journal row at Redis key "${this.keys.delivery(id)}" is damaged: ${parsed.error.issues[0]?.message ?? 'unreadable'}`,
      );
    }
    const [rowId, rev, route, deliveryId, orderKey, status, attempts, startedAt, attemptLog] =
      parsed.data;
    return { id: rowId, rev, route, deliveryId, orderKey, status, attempts, startedAt, attemptLog };
  }

  /**
   * Reads the row's head, builds a change and applies it if nobody changed the row meanwhile;
   * otherwise reads again. Resolves with the changed row, or undefined when the row is gone (or
   * `build` wants no change).
   */
  private async change(
    id: string,
    build: (head: RowHead) => RowChange | undefined,
    lifecycle?: { outbound: OutboundPlan | undefined; event: LifecycleEvent; now: number },
  ): Promise<DeliveryRecord | undefined> {
    // Lifecycle events are about the whole row: read it all, and write them with the change.
    const events =
      lifecycle && wantsLifecycle(lifecycle.outbound, lifecycle.event) ? lifecycle : undefined;
    for (let tries = 0; tries < MAX_CHANGE_TRIES; tries++) {
      const stored = events ? await this.read(id) : undefined;
      const head = events ? stored && headOf(stored) : await this.readHead(id);
      if (!head) return undefined;
      const change = build(head);
      if (!change) return undefined;
      if (events && stored) {
        const after = rowAfter(publicRecord(stored), change);
        change.outbox = lifecycleMessages(events.outbound, events.event, after, events.now).map(
          outboxEntry,
        );
      }
      const next = change.status ?? head.status;
      const k = this.keys;
      const reply = await APPLY.run(
        this.client,
        [
          k.delivery(id),
          k.status(head.status),
          k.status(next),
          k.routeStatus(head.route, head.status),
          k.routeStatus(head.route, next),
          k.all,
          k.route(head.route),
          k.deliveryId(head.deliveryId),
          k.finished,
          k.idempotency(head.route, head.deliveryId),
          k.orderLine(head.orderKey ?? ''),
          k.seq,
          k.deliveredLine(head.orderKey ?? ''),
          k.outboxDue,
          k.outboxExpires,
        ],
        [String(head.rev), JSON.stringify(change), k.outboxPrefix],
      );
      if (reply === 0) return undefined;
      if (reply === -1) continue;
      const hash = hashFromFlatReply(reply);
      if (!hash) throw new Error(`the apply script answered ${String(reply)}`);
      return publicRecord(deliveryFromHash(hash, k.delivery(id)));
    }
    throw new Error(
      `delivery ${id} kept changing under concurrent updates (${MAX_CHANGE_TRIES} tries); try again`,
    );
  }

  /**
   * The accept script's lifecycle events (its ARGV), or '' when the plan wants none: the new
   * row's `accepted` messages, and one `superseded` template per subscriber, whose body the
   * script completes with each superseded row's own facts (route, ids, event, action, attempts
   * allowed, reception time); the rest is what every superseded row has in common.
   */
  private acceptEvents(delivery: NewDelivery, id: string, outbound?: OutboundPlan): string {
    if (!outbound) return '';
    const now = delivery.receivedAt;
    const accepted = lifecycleMessages(outbound, 'accepted', queuedRecord(delivery, id, 0), now);
    const supersedes = delivery.supersede === true && delivery.orderKey !== null;
    const superseded = supersedes
      ? lifecycleMessages(outbound, 'superseded', supersededFacts(delivery, id), now)
      : [];
    if (accepted.length === 0 && superseded.length === 0) return '';
    return JSON.stringify({
      prefix: this.keys.outboxPrefix,
      accepted: accepted.map(outboxEntry),
      superseded: superseded.map(outboxEntry),
    });
  }

  private async pruneRow(id: string, olderThan: number): Promise<boolean> {
    const k = this.keys;
    const [rev, route, status, deliveryId, orderKey] = await this.client.hmget(
      k.delivery(id),
      'rev',
      'route',
      'status',
      'deliveryId',
      'orderKey',
    );
    if (rev === null || rev === undefined || !route || !deliveryId) {
      await this.client.zrem(k.finished, id);
      return false;
    }
    const parsedStatus = deliveryStatusSchema.safeParse(status);
    if (!parsedStatus.success) return false;
    const reply = await PRUNE_ROW.run(
      this.client,
      [
        k.delivery(id),
        k.status(parsedStatus.data),
        k.routeStatus(route, parsedStatus.data),
        k.all,
        k.route(route),
        k.deliveryId(deliveryId),
        k.finished,
        k.orderLine(orderKey ?? ''),
        k.deliveredLine(orderKey ?? ''),
      ],
      [rev, olderThan, id],
    );
    return reply === 1;
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new Error(
        `the Redis store at ${this.options.displayUrl} is closed; open it again to use it`,
      );
    }
  }
}

/**
 * Connects to Redis (waiting until it answers) and opens the store.
 *
 * @example
 * const store = await openRedisStore({ url: 'redis://:secret@cache:6379/0?prefix=team-a' });
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const resolved = resolveRedisOptions(options);
  const client = await openCommandClient(resolved);
  return new RedisStore(client, resolved);
}

/** What a change reads of a row it read whole. */
function headOf(stored: StoredDelivery): RowHead {
  const { id, rev, route, deliveryId, orderKey, status, attempts, startedAt, attemptLog } = stored;
  return { id, rev, route, deliveryId, orderKey, status, attempts, startedAt, attemptLog };
}

/**
 * What every row superseded by `delivery` (journal id `id`) has in common; the accept script
 * fills in each row's own facts (see `acceptEvents`), so these placeholders are never sent.
 */
function supersededFacts(delivery: NewDelivery, id: string): LifecycleFacts {
  return {
    id: '',
    route: delivery.route,
    deliveryId: '',
    event: '',
    action: null,
    status: 'superseded',
    attempts: 0,
    maxAttempts: 0,
    receivedAt: 0,
    startedAt: null,
    finishedAt: delivery.receivedAt,
    nextAttemptAt: 0,
    lastError: null,
    agent: null,
    answer: null,
    supersededBy: id,
  };
}

/** Runs commands in one round trip; a command's error rejects the whole call. */
async function pipelined(client: Redis, commands: string[][]): Promise<unknown[]> {
  if (commands.length === 0) return [];
  const results = (await client.pipeline(commands).exec()) ?? [];
  return results.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}
