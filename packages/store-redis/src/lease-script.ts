/**
 * A lease one process holds at a time: taken when free, renewed by its holder, refused to others.
 * Renewal lets the holder run an early pass (a rate-limited reconcile retries at `Retry-After`)
 * while the others keep skipping.
 */
import { RedisScript } from './script.js';

/** KEYS: the lease. ARGV: the holder's token, the TTL (ms). Returns 1 when held, else 0. */
export const TAKE_LEASE = new RedisScript(
  'take-lease',
  `local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`,
);
