import { describe, expect, it } from 'vitest';
import { useRedisStores, useTestRedis } from './test-support/stores.js';

const redis = await useTestRedis();
const { open } = useRedisStores(redis);

describe.skipIf(!redis)('RedisRateLimiter', () => {
  it('allows `limit` requests per route in the rolling window, then answers when to retry', async () => {
    const { rateLimiter } = await open();
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(await rateLimiter.hit('reviews', 3, t0 + i * 1000)).toEqual({
        allowed: true,
        retryAfterS: 0,
      });
    }
    // The oldest of the three frees its slot at t0 + 60 s.
    expect(await rateLimiter.hit('reviews', 3, t0 + 10_000)).toEqual({
      allowed: false,
      retryAfterS: 50,
    });
    expect((await rateLimiter.hit('reviews', 3, t0 + 60_000)).allowed).toBe(true);
    expect((await rateLimiter.hit('reviews', 3, t0 + 60_001)).allowed).toBe(false);
  });

  it('counts each route on its own', async () => {
    const { rateLimiter } = await open();
    expect((await rateLimiter.hit('a', 1, 5_000)).allowed).toBe(true);
    expect((await rateLimiter.hit('b', 1, 5_000)).allowed).toBe(true);
    expect((await rateLimiter.hit('a', 1, 5_001)).allowed).toBe(false);
  });

  it('holds across stores (receivers) on one Redis: concurrent hits never exceed the limit', async () => {
    const first = await open();
    const second = await open({ prefix: first.keys.prefix });
    const now = Date.now();
    const verdicts = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? first : second).rateLimiter.hit('reviews', 5, now),
      ),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
    expect(verdicts.filter((v) => !v.allowed).every((v) => v.retryAfterS === 60)).toBe(true);
  });

  it('answers at least one second, and keeps the log bounded by the limit', async () => {
    const store = await open();
    await store.rateLimiter.hit('reviews', 1, 0);
    expect(await store.rateLimiter.hit('reviews', 1, 59_999)).toEqual({
      allowed: false,
      retryAfterS: 1,
    });
    expect(await store.client.zcard(store.keys.rateLimit('reviews'))).toBe(1);
  });
});
