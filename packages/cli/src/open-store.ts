/** Opens the store config names: SQLite at `<home>/state.db` by default. */
import path from 'node:path';
import { MemoryStore, StartupError, type Store, type StoreConfig } from '@webhook-gateway/core';

export async function openStore(store: StoreConfig, home: string): Promise<Store> {
  switch (store.kind) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite': {
      const { openSqliteStore } = await import('@webhook-gateway/store-sqlite');
      const file = path.resolve(home, store.path ?? 'state.db');
      try {
        return openSqliteStore({ path: file, fsync: store.fsync });
      } catch (error) {
        throw new StartupError(
          `cannot open the journal at ${file}: ${(error as Error).message} (store.path)`,
        );
      }
    }
    case 'redis':
      throw new StartupError(
        'store.kind "redis" is not available in this version; use sqlite (store.kind)',
      );
  }
}
