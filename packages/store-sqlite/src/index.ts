/** The embedded durable store of webhook-gateway: a journal in one SQLite file. */
export { default, STORE_SQLITE_PLUGIN_NAME } from './plugin.js';
export { SqliteStore, openSqliteStore, INTERRUPTED_ATTEMPT_ERROR } from './sqlite-store.js';
export { storeDefaultPath, BUSY_TIMEOUT_MS, type SqliteStoreOptions } from './store-options.js';
