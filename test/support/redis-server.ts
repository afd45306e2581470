/**
 * The Redis the e2e tests run against: the one helper of packages/store-redis (6379 if it answers,
 * else a `redis-server` on a free port, else skip; in CI, fail), re-exported for test/.
 */
export {
  deleteKeys,
  findTestRedis,
  uniquePrefix,
} from '../../packages/store-redis/src/test-support/redis.js';
