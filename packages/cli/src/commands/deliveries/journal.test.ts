import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournal } from './journal.js';

const homes: string[] = [];
function makeHome(config?: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-cli-journal-'));
  homes.push(home);
  if (config !== undefined) fs.writeFileSync(path.join(home, 'config.yaml'), config);
  return home;
}

afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

describe('openJournal', () => {
  it('reads a journal the gateway has not created yet as empty, without creating a file', async () => {
    const home = makeHome();
    const store = await openJournal({ home });
    try {
      expect(await store.list({})).toEqual([]);
    } finally {
      await store.close();
    }
    expect(fs.existsSync(path.join(home, 'state.db'))).toBe(false);
  });

  it('opens the SQLite file at store.path, relative to the home', async () => {
    const home = makeHome('store: { kind: sqlite, path: journal/wg.db }\n');
    const { openSqliteStore } = await import('@webhook-gateway/store-sqlite');
    const writer = openSqliteStore({ path: path.join(home, 'journal/wg.db') });
    await writer.accept(
      {
        route: 'reviews',
        event: 'push',
        action: null,
        deliveryId: 'd-1',
        receivedAt: Date.now(),
        payload: {},
        headers: {},
        orderKey: null,
        maxAttempts: 5,
      },
      3_600_000,
    );
    await writer.close();
    const store = await openJournal({ home });
    try {
      expect((await store.list({})).map((r) => r.deliveryId)).toEqual(['d-1']);
      expect(store.kind).toBe('sqlite');
    } finally {
      await store.close();
    }
  });

  it('refuses a memory store, which no other process can read', async () => {
    const home = makeHome('store: { kind: memory }\n');
    await expect(openJournal({ home })).rejects.toThrow(/store.kind is "memory"/);
  });
});
