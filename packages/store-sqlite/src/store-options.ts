/**
 * What opening a store takes, and where its file lives by default. Kept apart from
 * `connection.ts` so the public types never name better-sqlite3's (a user compiling against
 * this package needs no `@types/better-sqlite3`).
 */
import path from 'node:path';

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
