/** Opens the store config names: SQLite at `<home>/state.db` by default, or Redis at `store.url`. */
import path from 'node:path';
import { StartupError, type Store } from '@webhook-gateway/core';
import { MemoryStore, type StoreConfig } from '@webhook-gateway/core/runtime';

/** `longRunning`: the gateway itself, not a one-off command (SQLite then checkpoints in the background). */
export async function openStore(
  store: StoreConfig,
  home: string,
  options: { longRunning?: boolean } = {},
): Promise<Store> {
  switch (store.kind) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite': {
      const { openSqliteStore } = await import('@webhook-gateway/store-sqlite');
      const file = path.resolve(home, store.path ?? 'state.db');
      try {
        return openSqliteStore({
          path: file,
          fsync: store.fsync,
          backgroundCheckpoints: options.longRunning ?? false,
        });
      } catch (error) {
        throw new StartupError(
          `cannot open the journal at ${file}: ${(error as Error).message} (store.path)`,
        );
      }
    }
    case 'redis': {
      if (store.url === undefined) {
        throw new StartupError(
          'store.kind "redis" needs the server\'s address: set store.url (for example redis://127.0.0.1:6379)',
        );
      }
      const { openRedisStore, maskRedisUrl } = await import('@webhook-gateway/store-redis');
      try {
        return await openRedisStore({ url: store.url });
      } catch (error) {
        // The store's own messages name store.url and never carry the password; mask anyway.
        const message = (error as Error).message.split(store.url).join(maskRedisUrl(store.url));
        throw new StartupError(`cannot open the Redis store: ${message}`);
      }
    }
  }
}
