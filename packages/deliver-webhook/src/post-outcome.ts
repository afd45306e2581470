/**
 * What a receiver's answer means for an outbox message: sent, tried again later (when, by its
 * `Retry-After` or the backoff), or given up. Pure, so the rules are tested without a network.
 */
import { parseRetryAfter } from '@webhook-gateway/target-kit';

/** `status`: the receiver's HTTP status, absent when it did not answer (for the POST's span). */
export type PostOutcome =
  | { kind: 'sent'; status: number }
  /** A retry may work: a 5xx, 408, 429, no answer. `retryAfterMs`: what the receiver asked. */
  | { kind: 'retry'; reason: string; retryAfterMs?: number; status?: number }
  /** A retry cannot fix it: a 4xx other than 408 and 429, or a redirect. */
  | { kind: 'give_up'; reason: string; status: number };

/** The outcome of an HTTP answer with `status` and its `Retry-After` header, if any. */
export function outcomeOfAnswer(
  status: number,
  retryAfter: string | undefined,
  now = Date.now(),
): PostOutcome {
  if (status >= 200 && status < 300) return { kind: 'sent', status };
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(retryAfter, now);
    return {
      kind: 'retry',
      reason: `the receiver answered ${status}`,
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  if (status >= 300 && status < 400) {
    return {
      kind: 'give_up',
      reason: `the receiver answered ${status}, a redirect, which is not followed: set the URL it points to`,
      status,
    };
  }
  return {
    kind: 'give_up',
    reason: `the receiver answered ${status}, which a retry cannot change`,
    status,
  };
}

/**
 * The delay before the next try after `attempts` failed ones: `baseMs` doubled each time, at
 * most `maxMs`, times a jitter of 0.5 to 1 so the messages of one outage do not return together.
 *
 * @example retryDelayMs(3, 1000, 300_000, () => 1) // 4000
 */
export function retryDelayMs(
  attempts: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), maxMs);
  return Math.round(exponential * (0.5 + random() * 0.5));
}
