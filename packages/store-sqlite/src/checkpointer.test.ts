import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BackgroundCheckpointer, CHECKPOINT_INTERVAL_MS } from './checkpointer.js';
import { SqliteStore } from './sqlite-store.js';
import { HOUR_MS, newDelivery, useTestStores } from './test-support/stores.js';

const { dir } = useTestStores();

const padding = 'p'.repeat(6000);

/** The log header's checkpoint sequence number: SQLite adds one each time the log restarts. */
function logRestarts(file: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(`${file}-wal`, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}

async function acceptMany(store: SqliteStore, count: number): Promise<void> {
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, () =>
        store.accept(newDelivery({ payload: { padding } }), HOUR_MS),
      ),
    );
  }
}

describe('background checkpoints', () => {
  it('copy the log into the database file from another thread; commits never checkpoint', async () => {
    const file = path.join(dir(), 'state.db');
    const store = new SqliteStore({ path: file, backgroundCheckpoints: true });
    const emptySize = statSync(file).size;
    await acceptMany(store, 250);
    // Over 1,000 pages of log, where SQLite's own commits would have checkpointed; the store's
    // connection has that off, and the worker's first run is 200 ms away: the rows are in the
    // log only.
    expect(statSync(file).size).toBe(emptySize);
    await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_INTERVAL_MS * 3));
    expect(statSync(file).size).toBeGreaterThan(emptySize + 250 * 6000);
    await store.close();

    const check = new Database(file, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(check.prepare('SELECT count(*) FROM deliveries').pluck().get()).toBe(250);
    check.close();
  });

  it('start the log again under steady writes instead of letting it grow', async () => {
    const file = path.join(dir(), 'state.db');
    const store = new SqliteStore({ path: file, backgroundCheckpoints: true });
    await acceptMany(store, 50);
    const firstRestarts = logRestarts(file);
    // Commits without a pause for 2.5 s; a log that is never complete never starts again.
    const until = Date.now() + 2_500;
    let accepted = 50;
    while (Date.now() < until) {
      await acceptMany(store, 50);
      accepted += 50;
    }
    expect(logRestarts(file)).toBeGreaterThan(firstRestarts);
    await store.close();
    const check = new Database(file, { readonly: true });
    expect(check.prepare('SELECT count(*) FROM deliveries').pluck().get()).toBe(accepted);
    check.close();
  });

  it('truncate a log that another writer keeps from completing, once it passes the limit', async () => {
    const file = path.join(dir(), 'state.db');
    await new SqliteStore({ path: file }).close();
    // Another process's connection: not held back by this process's lock, never checkpointing.
    const other = new Database(file);
    other.pragma('wal_autocheckpoint = 0');
    other.exec('CREATE TABLE scratch (text TEXT NOT NULL)');
    const checkpointer = new BackgroundCheckpointer({
      path: file,
      fsync: false,
      busyTimeoutMs: 5_000,
      maxLogBytes: 4 * 1024 * 1024,
      onFailure: (error) => {
        throw error;
      },
    });
    const insert = other.prepare('INSERT INTO scratch (text) VALUES (?)');
    let written = 0;
    let previous = 0;
    let shrank = false;
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      for (let i = 0; i < 20; i++) insert.run(padding);
      written += 20 * padding.length;
      // Neither a passive checkpoint nor a restart of the log makes its file smaller.
      const size = statSync(`${file}-wal`).size;
      if (size < previous) shrank = true;
      previous = size;
      // A gateway's commits leave gaps between them; so does this writer.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await checkpointer.stop();
    other.close();
    expect(written).toBeGreaterThan(16 * 1024 * 1024);
    expect(shrank).toBe(true);
  });

  it('stop with the store: its connection is closed before the store closes its own', async () => {
    const file = path.join(dir(), 'state.db');
    const store = new SqliteStore({ path: file, backgroundCheckpoints: true });
    await acceptMany(store, 50);
    expect(existsSync(`${file}-wal`)).toBe(true);
    await store.close();
    // SQLite removes the log when the last connection to the file closes: had the worker's
    // connection stayed open, the log would still be there.
    expect(existsSync(`${file}-wal`)).toBe(false);
  });
});
