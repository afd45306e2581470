/**
 * Opening the database file: how durable a commit is, and bringing its schema up to date.
 * Everything here runs once per process, never per call.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './schema.js';
import { BUSY_TIMEOUT_MS, type SqliteStoreOptions } from './store-options.js';

/** Opens (creating if needed) and migrates the database, ready for prepared statements. */
export function openDatabase(options: SqliteStoreOptions): Database.Database {
  const isNewFile = options.path !== ':memory:' && !existsSync(options.path);
  if (isNewFile) mkdirSync(path.dirname(options.path), { recursive: true, mode: 0o700 });
  const db = new Database(options.path, { timeout: BUSY_TIMEOUT_MS });
  try {
    // Payloads and subscription secrets live here: only the owner may read them. SQLite gives
    // the -wal and -shm files the same mode.
    if (isNewFile) chmodSync(options.path, 0o600);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // WAL: readers (the CLI) never block the writer, and a commit is one append to the log.
    const mode: unknown = db.pragma('journal_mode = WAL', { simple: true });
    if (options.path !== ':memory:' && mode !== 'wal') {
      throw new Error(
        `could not switch the database to WAL mode (it stays in "${String(mode)}" mode); ` +
          'put the file on a local disk (WAL needs shared memory, which network file systems lack)',
      );
    }
    db.pragma(`synchronous = ${options.fsync ? 'FULL' : 'NORMAL'}`);
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
