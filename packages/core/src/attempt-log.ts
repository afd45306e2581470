/** The per-attempt history of a delivery: pure steps, applied by a store in one atomic change. */
import type { AttemptRecord } from './delivery.js';

/** The log with a new, open attempt started at `now`. */
export function startAttempt(log: readonly AttemptRecord[], now: number): AttemptRecord[] {
  return [...log, { attempt: log.length + 1, startedAt: now, finishedAt: null, error: null }];
}

/** The log with its last attempt closed at `now`, if it is still open; otherwise unchanged. */
export function closeAttempt(
  log: readonly AttemptRecord[],
  now: number,
  error: string | null,
): AttemptRecord[] {
  const last = log.at(-1);
  if (!last || last.finishedAt !== null) return [...log];
  return [...log.slice(0, -1), { ...last, finishedAt: now, error }];
}
