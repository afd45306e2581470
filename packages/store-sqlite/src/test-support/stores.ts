/** Temp directories and stores for tests, closed and removed after each test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NewDelivery } from '@webhook-gateway/core';
import { sampleDelivery } from '@webhook-gateway/core/testing';
import { afterEach } from 'vitest';
import { SqliteStore } from '../sqlite-store.js';

export const HOUR_MS = 3_600_000;
export const T0 = 1_700_000_000_000;

/** A pull-request delivery received at T0 with a fresh delivery id; override what the test is about. */
export function newDelivery(overrides: Partial<NewDelivery> = {}): NewDelivery {
  return sampleDelivery({ receivedAt: T0, ...overrides });
}

/**
 * Registers cleanup for the calling test file and returns helpers: `dir()` makes a temp dir,
 * `open(file)` opens a store that is closed after the test.
 */
export function useTestStores() {
  const dirs: string[] = [];
  const stores: SqliteStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dir = (): string => {
    const made = mkdtempSync(path.join(tmpdir(), 'store-sqlite-'));
    dirs.push(made);
    return made;
  };
  const open = (file = path.join(dir(), 'state.db'), fsync = false): SqliteStore => {
    const store = new SqliteStore({ path: file, fsync });
    stores.push(store);
    return store;
  };
  return { dir, open };
}

/** Resolves with the first line of `stream` output that satisfies `match`. */
export function waitForLine(
  stream: NodeJS.ReadableStream,
  match: (line: string) => boolean,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer | string): void => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      const found = lines.find(match);
      if (found !== undefined) {
        stream.off('data', onData);
        resolve(found);
      }
    };
    stream.on('data', onData);
    stream.once('end', () => reject(new Error('the stream ended before the expected line')));
  });
}
