/**
 * Where accepted deliveries, idempotency keys and dynamic subscriptions live. The embedded
 * default is SQLite (`@webhook-gateway/store-sqlite`); `MemoryStore` serves tests.
 */
import type {
  AgentAccounting,
  DeliveredStatus,
  DeliveryRecord,
  DeliveryStatus,
  DeliverySafety,
  LineComment,
  ReviewConclusion,
  NewDelivery,
  NotRunStatus,
} from './delivery.js';
import type { Finding } from './findings.js';
import type { OutboundPlan } from './outbound-plan.js';
import type { NewOutboxMessage, OutboxClaim, OutboxMessage, OutboxOutcome } from './outbox.js';
import type { DeliveryQueue, QueueContext } from './queue.js';
import type { RateLimiter } from './rate-limit.js';

export type AcceptResult =
  | {
      accepted: true;
      record: DeliveryRecord;
      /** Journal ids of the deliveries this one superseded (`NewDelivery.supersede`). */
      superseded?: string[];
    }
  | { accepted: false; reason: 'duplicate' };

/**
 * What a queue needs to schedule a delivery (and `attempts`, which tells a retry's backoff from a
 * coalescing window in `queueStandings`); the worker reads the rest when it runs it.
 */
export type QueuedDelivery = Pick<
  DeliveryRecord,
  'id' | 'seq' | 'route' | 'deliveryId' | 'orderKey' | 'nextAttemptAt' | 'attempts'
>;

/**
 * What charts read of a journal row: how and when it ended, its attempts and its agent's
 * accounting. No payload, prompt, answer or headers, so a week of rows stays cheap to read.
 */
export type DeliveryOutline = Pick<
  DeliveryRecord,
  'id' | 'route' | 'status' | 'receivedAt' | 'attemptLog' | 'agent'
>;

export interface DeliveryFilter {
  route?: string;
  status?: DeliveryStatus;
  limit?: number;
}

/** A route added at run time with `webhook subscribe` (`docs/subscriptions.md`). */
export interface Subscription {
  name: string;
  description: string | null;
  events: string[];
  prompt: string | null;
  deliver: string;
  deliverChatId: string | null;
  skills: string[];
  /** The secret the subscription verifies with; never printed after creation. */
  secret: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * A pause of new attempts (`webhook-gateway pause`): deliveries are still accepted and journaled,
 * none starts until it is lifted.
 */
export interface Pause {
  /** The route paused, or null for every route. */
  route: string | null;
  /** What the operator gave as the reason, or null. */
  reason: string | null;
  /** When it began, ms since the epoch. */
  since: number;
}

/** What an attempt produced so far; an absent part is left as the row has it. */
export interface DeliveryProgress {
  prompt?: string;
  answer?: string;
  agent?: AgentAccounting;
  lineComments?: LineComment[];
  conclusion?: ReviewConclusion;
  /** The answer is a partial one (`DeliveryRecord.partial`). */
  partial?: true;
  /** Replaces the row's whole `safety` record. */
  safety?: DeliverySafety;
}

/**
 * The contract every store meets. Every method that changes state resolves once durable.
 *
 * The status changes take the route's `OutboundPlan` (absent: no subscriber): the same commit
 * writes to the outbox the lifecycle event each subscriber of the plan wants
 * (`lifecycleMessages` from `@webhook-gateway/core/store-kit`, about the row as the change left
 * it): `accepted` and `superseded` (accept), `failed` (markRetry), `dead` (markFailed),
 * `delivered` or `silent` (markDelivered), `denied`, `over_budget` or `skipped` (markRefused).
 */
export interface Store {
  readonly kind: string;
  /**
   * Journals a delivery unless its (route, delivery id) was accepted within `windowMs` and has not
   * been released by a final failure. Resolves after the row is committed. With
   * `delivery.supersede`, the same commit ends every earlier row with its `orderKey` that is
   * still queued and never started as `superseded`, naming the new row (`isSupersedable`).
   */
  accept(delivery: NewDelivery, windowMs: number, outbound?: OutboundPlan): Promise<AcceptResult>;
  /** Puts rows left `running` by a crash back to `queued`; returns how many. */
  recover(): Promise<number>;
  /**
   * Queued deliveries in order of arrival, at most `limit`, starting after `afterSeq`: only what a
   * queue needs to schedule them (no payload, so polling stays cheap).
   */
  queued(afterSeq: number, limit: number): Promise<QueuedDelivery[]>;
  get(id: string): Promise<DeliveryRecord | undefined>;
  /**
   * The newest (highest seq) `delivered` row with this `orderKey` other than `exceptId`: what the
   * route last answered about the same pull or merge request (`{_gateway.previous_head_sha}`).
   */
  lastDelivered(orderKey: string, exceptId: string): Promise<DeliveryRecord | undefined>;
  list(filter: DeliveryFilter): Promise<DeliveryRecord[]>;
  /**
   * The outlines of rows received at or after `receivedSince`, newest (highest seq) first, at
   * most `limit`: what the dashboard's charts read.
   */
  outlines(receivedSince: number, limit: number): Promise<DeliveryOutline[]>;
  /**
   * Marks a delivery running and counts the attempt; returns the updated row, or undefined when
   * the row is gone or was superseded (a superseded delivery never runs).
   */
  markRunning(id: string, now: number): Promise<DeliveryRecord | undefined>;
  /**
   * Keeps what an attempt produced so far (prompt, answer, accounting, line comments, conclusion)
   * without ending it. A replay drops the answer, its line comments and conclusion together.
   */
  saveProgress(id: string, progress: DeliveryProgress): Promise<void>;
  /** Records a failed attempt and queues the delivery again for `nextAttemptAt`. */
  markRetry(
    id: string,
    error: string,
    now: number,
    nextAttemptAt: number,
    outbound?: OutboundPlan,
  ): Promise<void>;
  /**
   * Ends a delivery that ran well: `delivered` (its answer was sent), or `silent` (its answer was
   * `[SILENT]`, so nothing was sent); closes the attempt.
   */
  markDelivered(
    id: string,
    now: number,
    status?: DeliveredStatus,
    outbound?: OutboundPlan,
  ): Promise<void>;
  /** Records the final failure and releases the idempotency key so a redelivery runs again. */
  markFailed(id: string, error: string, now: number, outbound?: OutboundPlan): Promise<void>;
  /**
   * Ends a delivery before its agent ran (`denied`, `over_budget`, `skipped`) with its reason,
   * closing the attempt. The idempotency key stays: a redelivery is the same refused event.
   */
  markRefused(
    id: string,
    status: NotRunStatus,
    reason: string,
    now: number,
    outbound?: OutboundPlan,
  ): Promise<void>;
  /** Queues a delivery again (any status): a fresh set of attempts. */
  replay(id: string, now: number): Promise<DeliveryRecord | undefined>;
  /**
   * Drops journal rows finished before `olderThan` and expired idempotency keys; returns how
   * many of each. A store that keeps a key on its row keeps the row while the key is live, and
   * reports no keys (an expired one is only a past date); Redis expires keys by itself.
   */
  prune(olderThan: number, now: number): Promise<{ deliveries: number; keys: number }>;

  listSubscriptions(): Promise<Subscription[]>;
  getSubscription(name: string): Promise<Subscription | undefined>;
  putSubscription(subscription: Subscription): Promise<void>;
  removeSubscription(name: string): Promise<boolean>;

  /**
   * Which of `deliveryIds` (the sender's ids) have a journal row for `route`, whatever its status.
   * Reconcile asks the forge to redeliver only what is not here.
   */
  journaledDeliveryIds(route: string, deliveryIds: readonly string[]): Promise<Set<string>>;
  /** A background pass's resume point by name (reconcile: the newest forge delivery it saw). */
  readCursor(name: string): Promise<string | undefined>;
  /** Keeps `value` as the cursor `name`; resolves once durable. */
  writeCursor(name: string, value: string): Promise<void>;

  /**
   * The pauses in force (`route: null` pauses every route), oldest first. A worker starts no
   * attempt of a paused route; every process sharing the store reads the same list.
   */
  pauses(): Promise<Pause[]>;
  /**
   * Pauses `route` (null: every route) from `now`, with `reason`; resolves once durable. A route
   * already paused keeps its pause as it is: the answer is the pause in force, and `added` says
   * whether this call made it.
   */
  pause(
    route: string | null,
    reason: string | null,
    now: number,
  ): Promise<{ pause: Pause; added: boolean }>;
  /** Lifts the pause of `route` (null: the pause of every route); false when there was none. */
  resume(route: string | null): Promise<boolean>;

  /**
   * The findings kept for a route's pull or merge request (`orderKey`: route, repository and
   * number), as its last review saved them; empty when none was saved.
   */
  findings(orderKey: string): Promise<Finding[]>;
  /** Replaces the findings kept for `orderKey`; resolves once durable. */
  saveFindings(orderKey: string, findings: readonly Finding[]): Promise<void>;

  /**
   * Adds messages to the outbox (a target's answers); a message whose id is there already is left
   * as it is, so adding one again after a crash sends it once more at most.
   */
  enqueueOutbox(messages: readonly NewOutboxMessage[]): Promise<void>;
  /**
   * Drops the messages expired at `now` (counted), then claims up to `limit` due ones, oldest due
   * first, for `leaseMs`: no other claim takes them until the lease ends (several senders on one
   * store never hold the same message at once). Each claimed message carries its claim's token.
   */
  claimOutbox(now: number, leaseMs: number, limit: number): Promise<OutboxClaim>;
  /**
   * Settles a claimed message: removed (`done`), or due again at `at` (`retry` counts a try and
   * keeps its error, `defer` does not). False, and nothing changed, when the message is gone or
   * its claim is no longer `message.claim` (its lease ended and another sender took it).
   */
  settleOutbox(
    message: Pick<OutboxMessage, 'id' | 'claim'>,
    outcome: OutboxOutcome,
  ): Promise<boolean>;

  close(): Promise<void>;

  /** A queue shared by several processes; without one, the gateway runs its embedded pool. */
  createQueue?(context: QueueContext): DeliveryQueue;
  /** A rate limiter shared by several receivers; without one, each process counts its own. */
  readonly rateLimiter?: RateLimiter;
  /**
   * For a store shared by several gateways: true when this store now holds `name` for `ttlMs`
   * (taken while free, renewed while its own) and no other does, so one of them runs a periodic
   * job. Without it, the process is alone.
   */
  tryLease?(name: string, ttlMs: number): Promise<boolean>;
}
