import { describe, expect, it } from 'vitest';
import { outcomeOfAnswer, retryDelayMs } from './post-outcome.js';

describe('outcomeOfAnswer', () => {
  it('counts 2xx as sent', () => {
    for (const status of [200, 201, 202, 204]) {
      expect(outcomeOfAnswer(status, undefined)).toEqual({ kind: 'sent', status });
    }
  });

  it('retries 408, 429 and 5xx, with the Retry-After they ask for', () => {
    expect(outcomeOfAnswer(503, '7')).toEqual({
      kind: 'retry',
      reason: 'the receiver answered 503',
      status: 503,
      retryAfterMs: 7000,
    });
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(outcomeOfAnswer(429, 'Thu, 01 Jan 2026 00:00:30 GMT', now)).toMatchObject({
      kind: 'retry',
      retryAfterMs: 30_000,
    });
    for (const status of [408, 500, 502, 504]) {
      expect(outcomeOfAnswer(status, undefined)).toEqual({
        kind: 'retry',
        reason: `the receiver answered ${status}`,
        status,
      });
    }
  });

  it('gives up on other 4xx and on redirects: a retry cannot change them', () => {
    for (const status of [400, 401, 403, 404, 410, 413, 422]) {
      expect(outcomeOfAnswer(status, '5').kind, String(status)).toBe('give_up');
    }
    expect(outcomeOfAnswer(404, undefined)).toMatchObject({ kind: 'give_up', status: 404 });
    expect(outcomeOfAnswer(301, undefined)).toMatchObject({
      kind: 'give_up',
      reason: expect.stringContaining('redirect') as string,
    });
  });
});

describe('retryDelayMs', () => {
  it('doubles from the base up to the cap, with jitter between half and all of it', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000, 300_000, () => 1))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(retryDelayMs(20, 1000, 300_000, () => 1)).toBe(300_000);
    expect(retryDelayMs(3, 1000, 300_000, () => 0)).toBe(2000);
  });
});
