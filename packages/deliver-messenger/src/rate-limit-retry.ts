/** Sending one message, waiting out the service's 429s a bounded number of times. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SendOutcome } from './protocol.js';

export interface RetryPolicy {
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
  policy: RetryPolicy,
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
