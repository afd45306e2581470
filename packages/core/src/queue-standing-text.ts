/**
 * How a queued delivery's standing is worded, the same in `deliveries list`/`show`, on the
 * dashboard and on the forge's check: "3rd, about 2 min", "behind the same pull request's
 * running review".
 */
import type { QueueStanding, WaitReason } from './queue-standing.js';

/**
 * 1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st.
 *
 * @example ordinal(3) // '3rd'
 */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** How long until `at`, roughly: "under a minute", "about 2 min", "about 3 h". */
export function roughlyIn(at: number, now: number): string {
  const ms = Math.max(0, at - now);
  if (ms < 60_000) return 'under a minute';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 90) return `about ${minutes} min`;
  return `about ${Math.round(minutes / 60)} h`;
}

/**
 * The standing in a few words: its place, then when it may start, or that an operator's pause
 * holds it (a pause has no end in sight, so no time is given).
 *
 * @example standingText({ position: 3, estimatedStartAt: now + 120_000, … }, now) // '3rd, about 2 min'
 * @example standingText({ position: 1, reasons: [{ kind: 'paused' }], … }, now) // '1st, paused'
 */
export function standingText(
  standing: Pick<QueueStanding, 'position' | 'estimatedStartAt' | 'reasons'>,
  now: number,
): string {
  const place = ordinal(standing.position);
  if (standing.reasons.length === 0) return `${place}, starting`;
  // A pause is checked before the queue's own rules, so it comes first.
  if (standing.reasons[0]?.kind === 'paused') return `${place}, paused`;
  if (standing.estimatedStartAt === undefined) return place;
  return `${place}, ${roughlyIn(standing.estimatedStartAt, now)}`;
}

/** A time as the journal's views show it: ISO 8601, UTC, to the second. */
function atTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Why it waits, in a sentence's words. */
export function waitReasonText(reason: WaitReason): string {
  switch (reason.kind) {
    case 'paused':
      return reason.reason === undefined
        ? 'paused by operator'
        : `paused by operator: ${reason.reason}`;
    case 'pull_request':
      return reason.blockerRunning
        ? `behind the same pull request's running review (${reason.blockedBy})`
        : `behind an earlier delivery about the same pull request (${reason.blockedBy})`;
    case 'backoff':
      return `backoff until ${atTime(reason.until)}`;
    case 'coalescing':
      return `coalescing window until ${atTime(reason.until)}`;
    case 'route_concurrency':
      return `route concurrency: ${reason.limit} of the route's attempts running`;
    case 'concurrency':
      return `concurrency: all ${reason.limit} workers busy`;
  }
}
