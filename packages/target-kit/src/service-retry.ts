/** Sending one message to a service, waiting out its 429s a bounded number of times. */
import { setTimeout as sleep } from 'node:timers/promises';

/** How one send went, as a target's protocol code classifies the service's answer. */
export type SendOutcome =
  | { kind: 'sent' }
  | { kind: 'rate_limited'; retryAfterMs: number }
  /** `reason` is the service's own words, safe to show (no token). */
  | { kind: 'failed'; reason: string };

export interface RateLimitRetryPolicy {
  /** Retries after a 429 before giving up (the worker then retries the delivery later). */
  retries: number;
  /** The longest wait honoured; a longer stated delay is cut to this. */
  maxDelayMs: number;
}

/**
 * Calls `send` until the message is sent; waits the stated delay after each 429. Throws with the
 * service's reason on a failure, or once the retries are spent.
 */
export async function sendWithRateLimitRetries(
  send: () => Promise<SendOutcome>,
  policy: RateLimitRetryPolicy,
  context: { service: string; signal: AbortSignal },
): Promise<void> {
  for (let retry = 0; ; retry++) {
    const outcome = await send();
    if (outcome.kind === 'sent') return;
    if (outcome.kind === 'failed') throw new Error(outcome.reason);
    if (retry >= policy.retries) {
      throw new Error(
        `${context.service} is still rate limiting after ${policy.retries} retries (asked to wait ${outcome.retryAfterMs / 1000} s); the delivery will be retried`,
      );
    }
    await sleep(Math.min(outcome.retryAfterMs, policy.maxDelayMs), undefined, {
      signal: context.signal,
    });
  }
}
