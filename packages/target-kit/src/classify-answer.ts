/** The readings of a service's answer that every target makes the same way. */
import { parseRetryAfter } from './retry-after.js';
import type { ServiceAnswer } from './service-http.js';
import type { SendOutcome } from './service-retry.js';

/** How long to wait when a 429 says nothing about how long. */
export const DEFAULT_RETRY_AFTER_MS = 1000;

/** A 429 whose wait is in its `Retry-After` header (else {@link DEFAULT_RETRY_AFTER_MS}). */
export function rateLimitedByHeader(answer: ServiceAnswer): SendOutcome {
  const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after')) ?? DEFAULT_RETRY_AFTER_MS;
  return { kind: 'rate_limited', retryAfterMs };
}

/** The part of a failure common to every service: 5xx is theirs, and the worker retries. */
export function serverErrorReason(service: string, status: number): string {
  return `${service} answered HTTP ${status} (a problem on its side); the delivery will be retried`;
}
