import { describe, expect, it } from 'vitest';
import { backoffDelayMs, parseRetryAfter, retryWaitMs } from './retry.js';

const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: 1000 };

describe('parseRetryAfter', () => {
  it('reads delta seconds', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter(' 0 ', 0)).toBe(0);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', now)).toBe(5000);
  });

  it('treats a date in the past as no wait', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.now())).toBe(0);
  });

  it('ignores a missing or unreadable header', () => {
    expect(parseRetryAfter(null, 0)).toBeUndefined();
    expect(parseRetryAfter('', 0)).toBeUndefined();
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter('-3', 0)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('doubles from the base delay and stops at the cap', () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelayMs(retry, policy))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
  });

  it('waits what Retry-After asks for instead of the backoff', () => {
    expect(retryWaitMs(1, 700, policy)).toBe(700);
    expect(retryWaitMs(2, undefined, policy)).toBe(200);
  });
});
