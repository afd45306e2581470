/** When to try an upstream call again: exponential backoff that honours `Retry-After`. */

/** How often and how long to wait before giving up on a busy or failing upstream. */
export interface RetryPolicy {
  /** Tries after the first one. */
  retries: number;
  /** The wait before the first retry; doubled for each further one. */
  baseDelayMs: number;
  /** No backoff wait is longer; a `Retry-After` beyond it means giving up at once. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  retries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
});

/**
 * The wait a `Retry-After` header asks for, in ms: delta seconds or an HTTP date.
 * Undefined when the header is absent or unreadable.
 *
 * @example parseRetryAfter('2', Date.now()) // 2000
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP date form starts with a day name; without one, Date.parse reads "-3" as a year.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The backoff wait before retry number `retry` (1-based): base × 2^(retry−1), capped. */
export function backoffDelayMs(retry: number, policy: RetryPolicy): number {
  return Math.min(policy.baseDelayMs * 2 ** Math.max(0, retry - 1), policy.maxDelayMs);
}

/** The wait before a retry: what the server asked for when it said, else the backoff. */
export function retryWaitMs(
  retry: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
): number {
  return retryAfterMs ?? backoffDelayMs(retry, policy);
}
