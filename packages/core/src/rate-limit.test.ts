import { describe, expect, it } from 'vitest';
import { SlidingWindowRateLimiter } from './rate-limit.js';

describe('SlidingWindowRateLimiter', () => {
  it('allows the limit within a rolling window, then tells when to retry', async () => {
    const limiter = new SlidingWindowRateLimiter(60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++)
      expect((await limiter.hit('r', 3, t0 + i * 1000)).allowed).toBe(true);
    const refused = await limiter.hit('r', 3, t0 + 10_000);
    expect(refused).toEqual({ allowed: false, retryAfterS: 50 });
    // the oldest request leaves the window after 60 s: one slot opens, not three
    expect((await limiter.hit('r', 3, t0 + 60_001)).allowed).toBe(true);
    expect((await limiter.hit('r', 3, t0 + 60_002)).allowed).toBe(false);
  });

  it('counts each key on its own', async () => {
    const limiter = new SlidingWindowRateLimiter();
    expect((await limiter.hit('a', 1, 0)).allowed).toBe(true);
    expect((await limiter.hit('a', 1, 1)).allowed).toBe(false);
    expect((await limiter.hit('b', 1, 1)).allowed).toBe(true);
  });
});
