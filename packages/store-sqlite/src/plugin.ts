/**
 * The SQLite store as a plugin: `store.kind: sqlite` opens `<home>/state.db` (or `store.path`).
 * Light to import: the store and better-sqlite3 load only when a config opens one.
 */
import path from 'node:path';
import { StartupError, definePlugin } from '@webhook-gateway/core';

export const STORE_SQLITE_PLUGIN_NAME = '@webhook-gateway/store-sqlite';

export default definePlugin({
  name: STORE_SQLITE_PLUGIN_NAME,
  provides: { stores: ['sqlite'] },
  stores: {
    async sqlite(settings, { home, longRunning }) {
      const { openSqliteStore } = await import('./sqlite-store.js');
      const file = path.resolve(home, settings.path ?? 'state.db');
      try {
        return openSqliteStore({
          path: file,
          fsync: settings.fsync,
          backgroundCheckpoints: longRunning,
        });
      } catch (error) {
        throw new StartupError(
          `cannot open the journal at ${file}: ${(error as Error).message} (store.path)`,
        );
      }
    },
  },
  setup() {},
});
