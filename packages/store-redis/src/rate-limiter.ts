/**
 * The per-route rate limit shared by every receiver on one Redis: a sliding log of request times
 * per route in a sorted set, checked and extended in one atomic script, so two receivers can never
 * both take the last slot.
 */
import { randomUUID } from 'node:crypto';
import type { RateLimiter, RateLimitVerdict } from '@webhook-gateway/core/store-kit';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { RedisKeys } from './keys.js';
import { RedisScript } from './script.js';

/**
 * KEYS: 1 the route's log. ARGV: 1 now ms, 2 window ms, 3 limit, 4 a unique member.
 * Reply: {1, 0} when allowed, {0, seconds until a slot frees up} when not.
 */
const SLIDING_WINDOW = new RedisScript(
  'sliding-window',
  `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  local waitMs = tonumber(oldest[2]) + window - now
  return {0, math.max(1, math.ceil(waitMs / 1000))}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0}
`,
);

const replySchema = z.tuple([z.union([z.literal(0), z.literal(1)]), z.number().int()]);

/**
 * Implements core's `RateLimiter` across processes. Request times are the receivers' clocks
 * (`now`), so keep receiver hosts on NTP.
 *
 * @example
 * const verdict = await limiter.hit('reviews', 30, Date.now()); // { allowed, retryAfterS }
 */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly client: Redis,
    private readonly keys: RedisKeys,
    private readonly windowMs = 60_000,
  ) {}

  async hit(key: string, limit: number, now: number): Promise<RateLimitVerdict> {
    const reply = await SLIDING_WINDOW.run(
      this.client,
      [this.keys.rateLimit(key)],
      [now, this.windowMs, limit, `${now}-${randomUUID()}`],
    );
    const parsed = replySchema.safeParse(reply);
    if (!parsed.success) {
      throw new Error(`the rate-limit script answered ${JSON.stringify(reply)}; expected [0|1, n]`);
    }
    const [allowed, retryAfterS] = parsed.data;
    return allowed === 1 ? { allowed: true, retryAfterS: 0 } : { allowed: false, retryAfterS };
  }
}
