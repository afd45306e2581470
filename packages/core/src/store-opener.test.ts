import { describe, expect, it } from 'vitest';
import { storeSchema } from './config/schema.js';
import { MemoryStore } from './memory-store.js';
import { definePlugin } from './plugin.js';
import { openConfiguredStore } from './store-opener.js';

const home = '/tmp/webhook-gateway-store-opener';

describe('openConfiguredStore', () => {
  it('opens the memory store that core provides', async () => {
    const store = await openConfiguredStore(storeSchema.parse({ kind: 'memory' }), [], { home });
    expect(store).toBeInstanceOf(MemoryStore);
    await store.close();
  });

  it('opens a kind through the plugin that provides it, with the store block and the home', async () => {
    const seen: unknown[] = [];
    const plugin = definePlugin({
      name: '@acme/store-sqlite-like',
      provides: { stores: ['sqlite'] },
      stores: {
        sqlite: async (settings, context) => {
          seen.push({ path: settings.path, ...context });
          return new MemoryStore();
        },
      },
      setup() {},
    });
    const settings = storeSchema.parse({ kind: 'sqlite', path: 'journal.db' });
    await openConfiguredStore(settings, [{ plugin, options: undefined }], {
      home,
      longRunning: true,
    });
    expect(seen).toEqual([{ path: 'journal.db', home, longRunning: true }]);
  });

  it('says which stores the loaded plugins provide when none provides the kind', async () => {
    await expect(
      openConfiguredStore(storeSchema.parse({ kind: 'redis' }), [], { home }),
    ).rejects.toThrow(
      'store.kind "redis": no loaded plugin provides this store (stores provided: memory); install its package beside the CLI and list it under plugins:',
    );
  });
});
