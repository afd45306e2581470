/** The Redis store of webhook-gateway: a shared journal, de-duplication, rate limits and a BullMQ queue. */
export { default, STORE_REDIS_PLUGIN_NAME } from './plugin.js';
export { RedisStore, openRedisStore } from './redis-store.js';
export type { RunView } from './queue-journal.js';
export { RedisDeliveryQueue } from './delivery-queue.js';
export { RedisRateLimiter } from './rate-limiter.js';
export {
  maskRedisUrl,
  resolveRedisOptions,
  RedisOptionsError,
  DEFAULT_PREFIX,
  type RedisStoreOptions,
  type ResolvedRedisOptions,
} from './options.js';
export { RedisConnectError } from './connection.js';
export { redisKeys, QUEUE_NAME, type RedisKeys } from './keys.js';
export { jobIdOf } from './jobs.js';
export { INTERRUPTED_ATTEMPT_ERROR, LOST_LAST_ATTEMPT_ERROR } from './row-changes.js';
