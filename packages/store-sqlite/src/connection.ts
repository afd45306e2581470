/**
 * Opening the database file: where it lives, how durable a commit is, and bringing its schema
 * up to date. Everything here runs once per process, never per call.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './schema.js';

/** How long a writer waits for another process's transaction (the CLI, a second gateway). */
export const BUSY_TIMEOUT_MS = 5000;

export interface SqliteStoreOptions {
  /** The database file; its directory is created when missing. */
  path: string;
  /**
   * `true`: every commit is fsynced (`synchronous = FULL`) and survives a power loss.
   * `false` (default): `synchronous = NORMAL`; a commit survives a crash or `kill -9` of the
   * process, and a power loss may lose the last commits (never corrupts the file).
   */
  fsync?: boolean;
  /**
   * Checkpoint the write-ahead log from a worker thread (see `checkpointer.ts`) rather than in
   * the commits that fill it: for a long-running gateway. Short-lived CLI commands leave it off.
   */
  backgroundCheckpoints?: boolean;
}

/** Where the gateway keeps its journal unless `store.path` says otherwise: `<home>/state.db`. */
export function storeDefaultPath(home: string): string {
  return path.join(home, 'state.db');
}

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
