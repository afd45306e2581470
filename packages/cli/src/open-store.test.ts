import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StartupError, type StoreConfig } from '@webhook-gateway/core';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinPlugins } from './builtin-plugins.js';
import { withStorePlugin } from './open-store.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(label: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `wg-${label}-`)));
  made.push(dir);
  return dir;
}

/**
 * A stand-in for @webhook-gateway/store-redis in `dir`'s node_modules: its `./plugin` is what
 * definePlugin makes (the brand, a name, a `redis` store), without importing core.
 */
function installRedisStoreStandIn(dir: string): void {
  const packageDir = path.join(dir, 'node_modules', '@webhook-gateway', 'store-redis');
  fs.mkdirSync(packageDir, { recursive: true });
  fs.writeFileSync(
    path.join(packageDir, 'package.json'),
    JSON.stringify({
      name: '@webhook-gateway/store-redis',
      type: 'module',
      exports: { './plugin': './plugin.js' },
    }),
  );
  fs.writeFileSync(
    path.join(packageDir, 'plugin.js'),
    "export default { [Symbol.for('webhook-gateway.plugin')]: true, name: '@webhook-gateway/store-redis', stores: { redis() {} }, setup() {} };\n",
  );
}

/** A config directory and a CLI in a project, as `pluginSearch` would describe them. */
function search() {
  const configDir = tempDir('home');
  const project = tempDir('project');
  return {
    configDir,
    project,
    search: {
      configDir,
      besides: [
        {
          dir: path.join(project, 'node_modules', '@webhook-gateway', 'cli'),
          label: 'beside the CLI',
        },
      ],
      installCommand: (name: string) => `npm install -g ${name}`,
    },
  };
}

describe('the Redis store, a separate install', () => {
  it('is not among the built-in plugins', () => {
    const names = builtinPlugins().map((loaded) => loaded.plugin.name);
    expect(names).toContain('@webhook-gateway/store-sqlite');
    expect(names).not.toContain('@webhook-gateway/store-redis');
  });

  it('is not looked for when store.kind names a built-in store', async () => {
    const plugins = builtinPlugins();
    const store = { kind: 'sqlite', fsync: false } satisfies StoreConfig;
    expect(await withStorePlugin(store, { dir: '/nowhere', plugins }, search().search)).toBe(
      plugins,
    );
  });

  it('refuses store.kind redis when it is not installed, saying where it looked and what to run', async () => {
    const { configDir, project, search: places } = search();
    const store = { kind: 'redis', url: 'redis://127.0.0.1:1', fsync: false } satisfies StoreConfig;
    const failure = withStorePlugin(store, { dir: configDir, plugins: builtinPlugins() }, places);
    await expect(failure).rejects.toBeInstanceOf(StartupError);
    await expect(failure).rejects.toThrow(
      `store.kind "redis" needs the package @webhook-gateway/store-redis, which is not installed (looked up from ${configDir} (the config file's directory), then from ${path.join(project, 'node_modules', '@webhook-gateway', 'cli')} (beside the CLI)); install it with: npm install -g @webhook-gateway/store-redis`,
    );
  });

  it('is loaded for store.kind redis once installed beside the CLI', async () => {
    const { configDir, project, search: places } = search();
    installRedisStoreStandIn(project);
    const store = { kind: 'redis', url: 'redis://127.0.0.1:1', fsync: false } satisfies StoreConfig;
    const plugins = await withStorePlugin(
      store,
      { dir: configDir, plugins: builtinPlugins() },
      places,
    );
    expect(plugins.at(-1)?.plugin.name).toBe('@webhook-gateway/store-redis');
    expect(plugins.at(-1)?.plugin.stores?.redis).toBeTypeOf('function');
  });
});
