/**
 * Whether a delivery's next attempt may start now, decided in Redis for all workers at once:
 * - its pull request's line (unfinished deliveries of one route+repo+PR, by seq) must have it at
 *   the head: one at a time, in order of arrival, also while the head waits for a retry;
 * - its route must have a free slot (`routes.<name>.concurrency`): a lease per attempt under way,
 *   scored by expiry and renewed while it lasts, so a killed worker's slot frees itself.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { RedisKeys } from './keys.js';
import { RedisScript } from './script.js';

/**
 * KEYS: 1 the line (used when ARGV[4] is 1), 2 the route's leases.
 * ARGV: 1 journal id, 2 now ms, 3 lease ms, 4 "1" when the row has a line, 5 route limit (0 none),
 *       6 the delivery hash key prefix.
 * Reply: {1, 'ok', 0}, or {0, 'order'|'route', ms when worth trying again (0: soon)}.
 */
const CLAIM = new RedisScript(
  'claim-attempt-slot',
  `
local id = ARGV[1]
local now = tonumber(ARGV[2])
if ARGV[4] == '1' then
  while true do
    local head = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
    if not head or head == id then break end
    local row = ARGV[6] .. head
    local status = redis.call('HGET', row, 'status')
    if status == 'queued' or status == 'running' then
      return {0, 'order', tonumber(redis.call('HGET', row, 'nextAttemptAt') or '0')}
    end
    -- finished or gone: it holds nobody up
    redis.call('ZREM', KEYS[1], head)
  end
end
local limit = tonumber(ARGV[5])
if limit > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if not redis.call('ZSCORE', KEYS[2], id) and redis.call('ZCARD', KEYS[2]) >= limit then
    return {0, 'route', 0}
  end
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), id)
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]) * 2)
end
return {1, 'ok', 0}
`,
);

/** KEYS: 1 the route's leases. ARGV: 1 journal id, 2 new expiry ms. Extends a held lease only. */
const RENEW = new RedisScript(
  'renew-attempt-slot',
  `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[1], (tonumber(ARGV[2]) - tonumber(ARGV[3])) * 2)
end
return 1
`,
);

const claimReplySchema = z.tuple([
  z.union([z.literal(0), z.literal(1)]),
  z.enum(['ok', 'order', 'route']),
  z.number(),
]);

export type ClaimResult =
  | { granted: true }
  /** `retryAt`: when the blocker may be done (a retry's time), 0 when unknown. */
  | { granted: false; reason: 'order' | 'route'; retryAt: number };

export interface AttemptSlotRequest {
  id: string;
  route: string;
  orderKey: string | null;
  /** `routes.<name>.concurrency`, or 0 for no per-route limit. */
  routeLimit: number;
  leaseMs: number;
  now: number;
}

/** Tries to take the attempt slot of a delivery. */
export async function claimAttemptSlot(
  client: Redis,
  keys: RedisKeys,
  request: AttemptSlotRequest,
): Promise<ClaimResult> {
  // Nothing to wait for: no line to stand in, no route limit to count against.
  if (request.orderKey === null && request.routeLimit <= 0) return { granted: true };
  const reply = await CLAIM.run(
    client,
    [keys.orderLine(request.orderKey ?? ''), keys.routeLeases(request.route)],
    [
      request.id,
      request.now,
      request.leaseMs,
      request.orderKey === null ? '0' : '1',
      request.routeLimit,
      keys.deliveryPrefix,
    ],
  );
  const parsed = claimReplySchema.safeParse(reply);
  if (!parsed.success) {
    throw new Error(
      `the attempt-slot script answered ${JSON.stringify(reply)}; expected [0|1, why, ms]`,
    );
  }
  const [granted, reason, retryAt] = parsed.data;
  if (granted === 1 || reason === 'ok') return { granted: true };
  return { granted: false, reason, retryAt };
}

/** Extends the route lease of a running delivery. */
export async function renewAttemptSlot(
  client: Redis,
  keys: RedisKeys,
  slot: { id: string; route: string; leaseMs: number },
  now: number,
): Promise<void> {
  await RENEW.run(client, [keys.routeLeases(slot.route)], [slot.id, now + slot.leaseMs, now]);
}

/** Gives the route slot back (the line moves on when the row finishes, in the journal). */
export async function releaseAttemptSlot(
  client: Redis,
  keys: RedisKeys,
  slot: { id: string; route: string },
): Promise<void> {
  await client.zrem(keys.routeLeases(slot.route), slot.id);
}
