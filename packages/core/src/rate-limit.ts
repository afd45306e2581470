/** A per-route rolling-window rate limit (`docs/contract.md#the-order-of-checks`, row 4). */

export interface RateLimitVerdict {
  allowed: boolean;
  /** Whole seconds until a request would be allowed again (0 when allowed). */
  retryAfterS: number;
}

/** Counts requests per key; a store that spans processes can provide its own. */
export interface RateLimiter {
  hit(key: string, limit: number, now: number): Promise<RateLimitVerdict>;
}

/**
 * A sliding log of request times per key: exact over the rolling window, and bounded by the limit
 * (the log never holds more than `limit` entries).
 */
export class SlidingWindowRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, number[]>();

  constructor(private readonly windowMs = 60_000) {}

  hit(key: string, limit: number, now: number): Promise<RateLimitVerdict> {
    let log = this.logs.get(key);
    if (!log) {
      log = [];
      this.logs.set(key, log);
    }
    const cutoff = now - this.windowMs;
    let expired = 0;
    while (expired < log.length && (log[expired] ?? 0) <= cutoff) expired++;
    if (expired > 0) log.splice(0, expired);
    if (log.length >= limit) {
      const oldest = log[log.length - limit] ?? now;
      const retryAfterS = Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
      return Promise.resolve({ allowed: false, retryAfterS });
    }
    log.push(now);
    return Promise.resolve({ allowed: true, retryAfterS: 0 });
  }

  /** Forgets keys with no request in the window, so removed routes do not linger. */
  sweep(now: number): void {
    for (const [key, log] of this.logs) {
      const last = log.at(-1);
      if (last === undefined || last <= now - this.windowMs) this.logs.delete(key);
    }
  }
}
