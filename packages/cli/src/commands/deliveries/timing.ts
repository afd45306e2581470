/**
 * How long a delivery took. The attempt log keeps every attempt ever made, while `attempts`
 * counts those since the last replay: the current round is the last `attempts` entries.
 */
import type { AttemptRecord, DeliveryRecord } from '@webhook-gateway/core';

type Timed = Pick<DeliveryRecord, 'status' | 'attempts' | 'attemptLog' | 'finishedAt'>;

/** The attempts of the current round (since acceptance, or since the last replay). */
export function currentRoundAttempts(record: Timed): AttemptRecord[] {
  if (record.attempts <= 0) return [];
  return record.attemptLog.slice(-record.attempts);
}

/** When the current round's first attempt started, or null before it has. */
export function currentRoundStart(record: Timed): number | null {
  return currentRoundAttempts(record)[0]?.startedAt ?? null;
}

/**
 * From the first attempt of the current round to the final outcome, backoff waits included;
 * null while the delivery is queued or running.
 */
export function deliveryDurationMs(record: Timed): number | null {
  if (record.status !== 'delivered' && record.status !== 'failed') return null;
  const start = currentRoundStart(record);
  if (start === null || record.finishedAt === null) return null;
  return Math.max(0, record.finishedAt - start);
}

/** How long one attempt ran, or null while it is still open. */
export function attemptDurationMs(attempt: AttemptRecord): number | null {
  return attempt.finishedAt === null ? null : Math.max(0, attempt.finishedAt - attempt.startedAt);
}
