/**
 * The Redis store as a plugin: `store.kind: redis` connects to `store.url`. Light to import: the
 * store, ioredis and BullMQ load only when a config opens one.
 */
import { StartupError, definePlugin } from '@webhook-gateway/core';
import { maskRedisUrl } from './options.js';

export const STORE_REDIS_PLUGIN_NAME = '@webhook-gateway/store-redis';

export default definePlugin({
  name: STORE_REDIS_PLUGIN_NAME,
  provides: { stores: ['redis'] },
  stores: {
    async redis(settings) {
      if (settings.url === undefined) {
        throw new StartupError(
          'store.kind "redis" needs the server\'s address: set store.url (for example redis://127.0.0.1:6379)',
        );
      }
      const { openRedisStore } = await import('./redis-store.js');
      try {
        return await openRedisStore({ url: settings.url });
      } catch (error) {
        // The store's own messages name store.url and never carry the password; mask anyway.
        const message = (error as Error).message
          .split(settings.url)
          .join(maskRedisUrl(settings.url));
        throw new StartupError(`cannot open the Redis store: ${message}`);
      }
    },
  },
  setup() {},
});
