/**
 * Opening the journal for the `deliveries` commands: the same store the gateway uses (config's
 * `store:`), shared with a running gateway, and closed when the command is done.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '@webhook-gateway/core';
import { MemoryStore, type StoreConfig } from '@webhook-gateway/core/runtime';
import { loadContext, type CommandContext } from '../../context.js';
import type { HomeOptions } from '../../home-options.js';
import { openStore } from '../../open-store.js';

/** The SQLite file the config names (`store.path` relative to the home, else `state.db`). */
function sqliteJournalPath(store: StoreConfig, home: string): string {
  return path.resolve(home, store.path ?? 'state.db');
}

/**
 * Opens the journal of the gateway at `options.home`. A SQLite journal that does not exist yet
 * (the gateway never started) reads as empty instead of creating a file; a `memory` store
 * lives inside one gateway process, so no other process can read it.
 */
export async function openJournal(options: HomeOptions): Promise<Store> {
  return openJournalOf(await loadContext(options));
}

async function openJournalOf(context: CommandContext): Promise<Store> {
  const { store } = context.config;
  if (store.kind === 'memory') {
    throw new Error(
      'store.kind is "memory": its deliveries live only inside the gateway process; use sqlite (store.kind) to keep a journal',
    );
  }
  if (store.kind === 'sqlite' && !fs.existsSync(sqliteJournalPath(store, context.home))) {
    return new MemoryStore();
  }
  return openStore(store, context);
}

/**
 * Runs `use` with the journal open (and the command's config, for the queue's limits) and closes
 * it afterwards, whatever happens.
 */
export async function withJournal<T>(
  options: HomeOptions,
  use: (store: Store, context: CommandContext) => Promise<T>,
): Promise<T> {
  const context = await loadContext(options);
  const store = await openJournalOf(context);
  try {
    return await use(store, context);
  } finally {
    await store.close();
  }
}
