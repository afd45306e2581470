/** Redis stores for tests: each under its own key prefix, closed and its keys deleted afterwards. */
import { sampleDelivery } from '@webhook-gateway/core/testing';
import { afterAll, afterEach } from 'vitest';
import { openRedisStore, type RedisStore } from '../redis-store.js';
import type { RedisStoreOptions } from '../options.js';
import { deleteKeys, findTestRedis, uniquePrefix, type TestRedis } from './redis.js';

export const HOUR_MS = 3_600_000;

/** The Redis of this test file (undefined: tests are skipped); stopped after the file. */
export async function useTestRedis(): Promise<TestRedis | undefined> {
  const redis = await findTestRedis();
  afterAll(async () => {
    await redis?.stop();
  });
  return redis;
}

/** A pull-request delivery received now with a fresh delivery id; override what the test is about. */
export const newDelivery = sampleDelivery;

/**
 * Registers cleanup for the calling test file and returns `open(options)`: a store under a fresh
 * prefix (or the given one, to open a second store on the same data), closed after the test.
 */
export function useRedisStores(redis: TestRedis | undefined) {
  const stores: RedisStore[] = [];
  const prefixes = new Set<string>();
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    if (redis) for (const prefix of prefixes) await deleteKeys(redis.url(), prefix);
    prefixes.clear();
  });
  const open = async (options: Partial<RedisStoreOptions> = {}): Promise<RedisStore> => {
    if (!redis) throw new Error('no Redis to test against');
    const prefix = options.prefix ?? uniquePrefix();
    prefixes.add(prefix);
    const store = await openRedisStore({ url: redis.url(), ...options, prefix });
    stores.push(store);
    return store;
  };
  return { open };
}
