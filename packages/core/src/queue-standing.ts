/**
 * Where each queued delivery stands: its place in its route's queue, when it may start, and why
 * it has not started yet. Worked out from a snapshot of the journal by the rules both queues
 * follow (`worker-pool.ts`, the Redis queue's attempt slot): one delivery per pull request at a
 * time in order of arrival, a retry's backoff and a coalescing window (`nextAttemptAt`), the
 * route's `concurrency`, then the global `concurrency`. Pure, so every view (`deliveries list`,
 * the dashboard, a check on the forge) tells the same story.
 */
import type { DeliveryRecord } from './delivery.js';
import type { QueueLimits } from './queue.js';
import type { QueuedDelivery } from './store.js';

/**
 * Why a queued delivery is not running now. A union so new holds add a kind; views word each
 * kind (`waitReasonText`), and an unknown kind fails their `switch` at compile time.
 */
export type WaitReason =
  /**
   * Deliveries about one pull request run one at a time, in order of arrival: `blockedBy` (the
   * journal id) is running, or queued before this one.
   */
  | { kind: 'pull_request'; blockedBy: string; blockerRunning: boolean }
  /** A failed attempt's backoff, until `until` (ms since the epoch). */
  | { kind: 'backoff'; until: number }
  /** A `coalesce` route's window, until `until`: later events of the burst replace this one. */
  | { kind: 'coalescing'; until: number }
  /** The route's `concurrency`: `limit` attempts of the route are running. */
  | { kind: 'route_concurrency'; limit: number }
  /** The gateway's `concurrency`: every worker is busy. */
  | { kind: 'concurrency'; limit: number }
  /** Held from outside the queue's own rules (a pause: `QueueSnapshot.heldBack`). */
  | HeldBack;

/**
 * A hold the queue's own rules do not know: where an operator's pause plugs in. `kind: 'paused'`
 * is the one foreseen; `reason` is the operator's words.
 */
export interface HeldBack {
  kind: 'paused';
  reason?: string;
}

/** A queued delivery's standing. */
export interface QueueStanding {
  id: string;
  route: string;
  /** 1 for the next of its route to start, in the order the queue will start them. */
  position: number;
  /** How many deliveries of its route are queued. */
  queuedOnRoute: number;
  /**
   * When it is expected to start (ms since the epoch), from its route's recent run times;
   * undefined when no run time is known yet or a hold has no end.
   */
  estimatedStartAt: number | undefined;
  /** Why it is not running now, the rule the queue checks first first; empty: it starts now. */
  reasons: WaitReason[];
}

/** A running attempt as the standings need it. */
export type RunningDelivery = Pick<DeliveryRecord, 'id' | 'route' | 'orderKey' | 'startedAt'>;

/** What the standings are worked out from. */
export interface QueueSnapshot {
  /** Queued rows in order of arrival (`Store.queued`). */
  queued: readonly QueuedDelivery[];
  running: readonly RunningDelivery[];
  limits: QueueLimits;
  /** A route's typical attempt duration in ms (`typicalRunMs`); absent: not known. */
  runMs: ReadonlyMap<string, number>;
  now: number;
  /** A hold from outside the queue's rules (a paused route), checked before every other rule. */
  heldBack?: (delivery: QueuedDelivery) => HeldBack | undefined;
}

interface Slot {
  route: string;
  orderKey: string | null;
  endsAt: number;
}

/** Run time used to order deliveries when none is known: positions still come out right. */
const UNKNOWN_RUN_MS = 60_000;

/**
 * The median duration of the finished attempts in `rows` (newest first), over at most `most`
 * attempts; undefined when none finished.
 *
 * @example typicalRunMs([{ attemptLog: [{ startedAt: 0, finishedAt: 90_000 }] }]) // 90_000
 */
export function typicalRunMs(
  rows: readonly Pick<DeliveryRecord, 'attemptLog'>[],
  most = 20,
): number | undefined {
  const durations: number[] = [];
  for (const row of rows) {
    for (const attempt of [...row.attemptLog].reverse()) {
      if (attempt.finishedAt === null) continue;
      durations.push(Math.max(0, attempt.finishedAt - attempt.startedAt));
      if (durations.length >= most) break;
    }
    if (durations.length >= most) break;
  }
  if (durations.length === 0) return undefined;
  durations.sort((a, b) => a - b);
  const middle = Math.floor(durations.length / 2);
  return durations.length % 2 === 1
    ? (durations[middle] ?? 0)
    : ((durations[middle - 1] ?? 0) + (durations[middle] ?? 0)) / 2;
}

/**
 * The standing of every queued delivery in `snapshot`: the queue's dispatch played forward,
 * each running attempt taking its route's typical run time (one that ran longer ends now). A
 * retry is not foreseen: the estimate assumes each attempt succeeds.
 */
export function queueStandings(snapshot: QueueSnapshot): Map<string, QueueStanding> {
  const { limits, now } = snapshot;
  const runMsOf = (route: string): number => snapshot.runMs.get(route) ?? UNKNOWN_RUN_MS;
  const slots: Slot[] = snapshot.running.map((row) => ({
    route: row.route,
    orderKey: row.orderKey,
    endsAt: Math.max(now, (row.startedAt ?? now) + runMsOf(row.route)),
  }));
  const runningByOrderKey = new Map<string, string>();
  for (const row of snapshot.running) {
    if (row.orderKey !== null) runningByOrderKey.set(row.orderKey, row.id);
  }
  const held = new Map<string, HeldBack>();
  for (const row of snapshot.queued) {
    const hold = snapshot.heldBack?.(row);
    if (hold) held.set(row.id, hold);
  }
  let pending = [...snapshot.queued].sort((a, b) => a.seq - b.seq);
  const startsAt = new Map<string, number>();
  const reasons = new Map<string, WaitReason[]>();
  let time = now;
  for (let round = 0; pending.length > 0; round++) {
    const first = round === 0;
    const busy = new Map<string, string>();
    for (const slot of slots) if (slot.orderKey !== null) busy.set(slot.orderKey, '');
    const perRoute = new Map<string, number>();
    for (const slot of slots) perRoute.set(slot.route, (perRoute.get(slot.route) ?? 0) + 1);
    const waiting: QueuedDelivery[] = [];
    for (const item of pending) {
      const why: WaitReason[] = [];
      const hold = held.get(item.id);
      if (hold) why.push(hold);
      if (item.orderKey !== null) {
        const ahead = busy.get(item.orderKey);
        if (ahead !== undefined) {
          const running = runningByOrderKey.get(item.orderKey);
          why.push({
            kind: 'pull_request',
            blockedBy: ahead === '' ? (running ?? '') : ahead,
            blockerRunning: ahead === '',
          });
        } else busy.set(item.orderKey, item.id);
      }
      if (item.nextAttemptAt > time) {
        why.push(
          item.attempts > 0
            ? { kind: 'backoff', until: item.nextAttemptAt }
            : { kind: 'coalescing', until: item.nextAttemptAt },
        );
      }
      const routeLimit = limits.routeConcurrency[item.route];
      if (routeLimit !== undefined && (perRoute.get(item.route) ?? 0) >= routeLimit) {
        why.push({ kind: 'route_concurrency', limit: routeLimit });
      }
      if (slots.length >= limits.concurrency) {
        why.push({ kind: 'concurrency', limit: limits.concurrency });
      }
      if (first) reasons.set(item.id, why);
      if (why.length > 0) {
        waiting.push(item);
        continue;
      }
      startsAt.set(item.id, time);
      slots.push({
        route: item.route,
        orderKey: item.orderKey,
        endsAt: time + runMsOf(item.route),
      });
      perRoute.set(item.route, (perRoute.get(item.route) ?? 0) + 1);
    }
    pending = waiting;
    // The next moment anything changes: an attempt ends, or a backoff or window runs out.
    let next = Infinity;
    for (const slot of slots) next = Math.min(next, slot.endsAt);
    for (const item of pending) {
      if (item.nextAttemptAt > time) next = Math.min(next, item.nextAttemptAt);
    }
    if (next === Infinity) break; // only held deliveries are left: they have no start in sight
    time = Math.max(time, next);
    for (let index = slots.length - 1; index >= 0; index--) {
      if ((slots[index]?.endsAt ?? Infinity) <= time) slots.splice(index, 1);
    }
  }
  return standingsByRoute(snapshot, startsAt, reasons);
}

/** Positions within each route, in order of expected start (order of arrival on a tie). */
function standingsByRoute(
  snapshot: QueueSnapshot,
  startsAt: ReadonlyMap<string, number>,
  reasons: ReadonlyMap<string, WaitReason[]>,
): Map<string, QueueStanding> {
  const byRoute = new Map<string, QueuedDelivery[]>();
  for (const item of snapshot.queued) {
    const list = byRoute.get(item.route) ?? [];
    list.push(item);
    byRoute.set(item.route, list);
  }
  const standings = new Map<string, QueueStanding>();
  for (const [route, items] of byRoute) {
    const known = snapshot.runMs.has(route);
    const ordered = [...items].sort(
      (a, b) =>
        (startsAt.get(a.id) ?? Infinity) - (startsAt.get(b.id) ?? Infinity) || a.seq - b.seq,
    );
    ordered.forEach((item, index) => {
      const start = startsAt.get(item.id);
      const why = reasons.get(item.id) ?? [];
      standings.set(item.id, {
        id: item.id,
        route,
        position: index + 1,
        queuedOnRoute: items.length,
        // Starting now needs no run time; later ones need the route's.
        estimatedStartAt:
          start === undefined ? undefined : start === snapshot.now || known ? start : undefined,
        reasons: why,
      });
    });
  }
  return standings;
}
