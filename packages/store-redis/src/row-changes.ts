/**
 * The state changes of a journal row as data: each store method reads the row's head, builds one
 * `RowChange` here (pure, unit-tested without Redis), and the apply script writes it atomically,
 * provided nobody changed the row in between (its `rev`).
 */
import type {
  AttemptRecord,
  DeliveredStatus,
  DeliveryRecord,
  DeliveryStatus,
  NewOutboxMessage,
  NotRunStatus,
} from '@webhook-gateway/core';
import { closeAttempt, startAttempt } from '@webhook-gateway/core/store-kit';

/** What a change needs to know about the row (read with HMGET before the change). */
export interface RowHead {
  id: string;
  rev: number;
  route: string;
  deliveryId: string;
  orderKey: string | null;
  status: DeliveryStatus;
  attempts: number;
  startedAt: number | null;
  attemptLog: AttemptRecord[];
}

/** One guarded change; sent to the apply script as JSON (strings and booleans only). */
export interface RowChange {
  /** The new status: the row moves between the status indexes. */
  status?: DeliveryStatus;
  /** Hash fields to write. */
  set?: Record<string, string>;
  /** Hash fields to remove (they read back as null). */
  unset?: string[];
  /** A new, higher seq from the counter: the row goes to the back (replay). */
  newSeq?: boolean;
  /** Index the row as finished at this time (for pruning). */
  finishedAt?: string;
  /** Take the row out of the finished index. */
  unfinish?: boolean;
  /** Release the idempotency key, if it still belongs to this row. */
  release?: boolean;
  /** Leave the pull request's line (finished) or join it at the row's seq (queued again). */
  leaveLine?: boolean;
  joinLine?: boolean;
  /** Lifecycle messages written with the change (`outboxEntry` of each). */
  outbox?: OutboxEntry[];
}

/** An outbox message as the scripts add it: every field a string. */
export interface OutboxEntry {
  id: string;
  destination: string;
  body: string;
  createdAt: string;
  expiresAt: string;
  traceContext?: string;
}

export function outboxEntry(message: NewOutboxMessage): OutboxEntry {
  return {
    id: message.id,
    destination: message.destination,
    body: message.body,
    createdAt: String(message.createdAt),
    expiresAt: String(message.expiresAt),
    ...(message.traceContext !== undefined ? { traceContext: message.traceContext } : {}),
  };
}

/**
 * The row as `change` leaves it, for the lifecycle events written with the change: the new
 * status and the fields it sets or removes. The rev guard makes it the row Redis then holds.
 */
export function rowAfter(record: DeliveryRecord, change: RowChange): DeliveryRecord {
  const set = change.set ?? {};
  const unset = new Set(change.unset ?? []);
  const number = (field: string, current: number | null): number | null =>
    unset.has(field) ? null : set[field] !== undefined ? Number(set[field]) : current;
  const text = (field: string, current: string | null): string | null =>
    unset.has(field) ? null : (set[field] ?? current);
  return {
    ...record,
    status: change.status ?? record.status,
    attempts: number('attempts', record.attempts) ?? record.attempts,
    nextAttemptAt: number('nextAttemptAt', record.nextAttemptAt) ?? record.nextAttemptAt,
    startedAt: number('startedAt', record.startedAt),
    finishedAt: number('finishedAt', record.finishedAt),
    lastError: text('lastError', record.lastError),
    answer: text('answer', record.answer),
  };
}

/** What `recover`-style requeues record on the attempt a stop cut short. */
export const INTERRUPTED_ATTEMPT_ERROR = 'interrupted: the gateway stopped during this attempt';

/** What a worker records when the previous worker died during a delivery's last allowed attempt. */
export const LOST_LAST_ATTEMPT_ERROR =
  'the worker running the last allowed attempt stopped before it finished (killed or stalled)';

const log = (entries: AttemptRecord[]) => JSON.stringify(entries);

/** A superseded row never runs: no change (markRunning answers undefined). */
export function runningChange(head: RowHead, now: number): RowChange | undefined {
  if (head.status === 'superseded') return undefined;
  return {
    status: 'running',
    set: {
      attempts: String(head.attempts + 1),
      attemptLog: log(startAttempt(head.attemptLog, now)),
      ...(head.startedAt === null ? { startedAt: String(now) } : {}),
    },
  };
}

export function retryChange(
  head: RowHead,
  error: string,
  now: number,
  nextAttemptAt: number,
): RowChange {
  return {
    status: 'queued',
    set: {
      lastError: error,
      nextAttemptAt: String(nextAttemptAt),
      attemptLog: log(closeAttempt(head.attemptLog, now, error)),
    },
  };
}

/** Ran well: `delivered`, or `silent` (an answer of `[SILENT]`, not sent). */
export function deliveredChange(
  head: RowHead,
  now: number,
  status: DeliveredStatus = 'delivered',
): RowChange {
  return {
    status,
    set: { finishedAt: String(now), attemptLog: log(closeAttempt(head.attemptLog, now, null)) },
    finishedAt: String(now),
    leaveLine: head.orderKey !== null,
  };
}

/**
 * Ended before a run: refused by the worker (`denied`, `over_budget`) or dropped by the route's
 * script (`skipped`). Final, the key is kept.
 */
export function refusedChange(
  head: RowHead,
  status: NotRunStatus,
  reason: string,
  now: number,
): RowChange {
  return {
    status,
    set: {
      lastError: reason,
      finishedAt: String(now),
      attemptLog: log(closeAttempt(head.attemptLog, now, reason)),
    },
    finishedAt: String(now),
    leaveLine: head.orderKey !== null,
  };
}

/** Final failure: the idempotency key is released so the sender's redelivery runs again. */
export function failedChange(head: RowHead, error: string, now: number): RowChange {
  return {
    status: 'failed',
    set: {
      lastError: error,
      finishedAt: String(now),
      attemptLog: log(closeAttempt(head.attemptLog, now, error)),
    },
    finishedAt: String(now),
    release: true,
    leaveLine: head.orderKey !== null,
  };
}

/**
 * A fresh set of attempts under a new seq; the answer, its line comments and whether it was partial
 * are dropped so the agent runs again.
 */
export function replayChange(head: RowHead, now: number): RowChange {
  return {
    status: 'queued',
    set: { attempts: '0', nextAttemptAt: String(now) },
    unset: [
      'answer',
      'lineComments',
      'conclusion',
      'partial',
      'safety',
      'lastError',
      'finishedAt',
      'supersededBy',
    ],
    newSeq: true,
    unfinish: true,
    joinLine: head.orderKey !== null,
  };
}

/** A running attempt cut short by a stop goes back to the queue; other rows are left alone. */
export function interruptedChange(head: RowHead, now: number): RowChange | undefined {
  if (head.status !== 'running') return undefined;
  return {
    status: 'queued',
    set: { attemptLog: log(closeAttempt(head.attemptLog, now, INTERRUPTED_ATTEMPT_ERROR)) },
  };
}
