/**
 * The Redis key layout, in one place (the package README has the same table). Every key starts
 * with the prefix; route names are URI-encoded so a `:` in one cannot make two keys meet.
 */
import type { DeliveryStatus } from '@webhook-gateway/core';

/** BullMQ's queue name: its keys are `<prefix>:jobs:*`. */
export const QUEUE_NAME = 'jobs';

export interface RedisKeys {
  readonly prefix: string;
  /** INCR counter handing out `seq` (order of arrival). */
  readonly seq: string;
  /** Hash: one journal row. */
  delivery(id: string): string;
  /** The delivery hash key without its id, for scripts that look up another row. */
  readonly deliveryPrefix: string;
  /** Sorted sets of journal ids scored by seq: every row, by status, by route, by both. */
  readonly all: string;
  status(status: DeliveryStatus): string;
  route(route: string): string;
  routeStatus(route: string, status: DeliveryStatus): string;
  /** Sorted set of the journal ids holding a sender's delivery id (for `deliveries show <id>`). */
  deliveryId(deliveryId: string): string;
  /** Sorted set of finished journal ids scored by finish time, for pruning. */
  readonly finished: string;
  /** String with a TTL: the de-duplication window of (route, delivery id). */
  idempotency(route: string, deliveryId: string): string;
  /** Sorted set: the unfinished deliveries of one pull request, scored by seq (its line). */
  orderLine(orderKey: string): string;
  /** Sorted set: the delivered rows of one pull request, scored by seq (`lastDelivered`). */
  deliveredLine(orderKey: string): string;
  /** Sorted set: the deliveries of a route running now, scored by lease expiry. */
  routeLeases(route: string): string;
  /** Sorted set: the request times of a route in the rate-limit window. */
  rateLimit(route: string): string;
  /** Hash: subscription name → JSON. */
  readonly subscriptions: string;
  /** String with a TTL: held by the worker sweeping for rows without a job. */
  readonly sweepLock: string;
  /** Hash: cursor name → value (background passes' resume points). */
  readonly cursors: string;
  /** Hash: order key (route, repository, number) → its findings as JSON (`Finding[]`). */
  readonly findings: string;
  /** Hash: `all` or `route:<name>` → the pause in force as JSON (`Pause`). */
  readonly pauses: string;
  /** String with a TTL: held by the process that runs the periodic job `name`. */
  lease(name: string): string;
  /** Hash: one outbox message (`NewOutboxMessage`, its tries and its claim). */
  outbox(id: string): string;
  /** The outbox hash key without its id, for scripts. */
  readonly outboxPrefix: string;
  /** Sorted set: outbox ids by when a sender may claim them (a claim's lease end while held). */
  readonly outboxDue: string;
  /** Sorted set: outbox ids by when they expire unsent. */
  readonly outboxExpires: string;
}

/** The keys under `prefix`. */
export function redisKeys(prefix: string): RedisKeys {
  const route = (name: string) => encodeURIComponent(name);
  return {
    prefix,
    seq: `${prefix}:seq`,
    delivery: (id) => `${prefix}:delivery:${id}`,
    deliveryPrefix: `${prefix}:delivery:`,
    all: `${prefix}:idx:all`,
    status: (status) => `${prefix}:idx:status:${status}`,
    route: (name) => `${prefix}:idx:route:${route(name)}`,
    routeStatus: (name, status) => `${prefix}:idx:route-status:${route(name)}:${status}`,
    deliveryId: (deliveryId) => `${prefix}:idx:delivery-id:${deliveryId}`,
    finished: `${prefix}:idx:finished`,
    idempotency: (name, deliveryId) => `${prefix}:idem:${route(name)}:${deliveryId}`,
    orderLine: (orderKey) => `${prefix}:order:${orderKey}`,
    deliveredLine: (orderKey) => `${prefix}:delivered:${orderKey}`,
    routeLeases: (name) => `${prefix}:leases:${route(name)}`,
    rateLimit: (name) => `${prefix}:rate:${route(name)}`,
    subscriptions: `${prefix}:subscriptions`,
    sweepLock: `${prefix}:sweep-lock`,
    cursors: `${prefix}:cursors`,
    findings: `${prefix}:findings`,
    pauses: `${prefix}:pauses`,
    lease: (name) => `${prefix}:lease:${encodeURIComponent(name)}`,
    outbox: (id) => `${prefix}:outbox:msg:${id}`,
    outboxPrefix: `${prefix}:outbox:msg:`,
    outboxDue: `${prefix}:outbox:due`,
    outboxExpires: `${prefix}:outbox:expires`,
  };
}
