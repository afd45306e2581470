import { afterEach, describe, expect, it } from 'vitest';
import { importPlugin } from './plugin-loader.js';
import {
  installPackage,
  makeTempDir,
  pluginModuleSource,
  removeTempDirs,
  writeFile,
} from './test-support/plugin-dirs.js';

afterEach(removeTempDirs);

describe('importing a plugin', () => {
  it('loads a local .mjs plugin and keeps the options config gave it', async () => {
    const dir = makeTempDir('home');
    writeFile(dir, 'plugins/local.mjs', pluginModuleSource('local'));
    const loaded = await importPlugin({ name: './plugins/local.mjs', options: { a: 1 } }, dir);
    expect(loaded.plugin.name).toBe('local');
    expect(loaded.options).toEqual({ a: 1 });
  });

  it('loads a local .js plugin in a folder whose package.json says "type": "module"', async () => {
    const dir = makeTempDir('home');
    writeFile(dir, 'package.json', JSON.stringify({ type: 'module' }));
    writeFile(dir, 'plugins/local.js', pluginModuleSource('local'));
    expect((await importPlugin('./plugins/local', dir)).plugin.name).toBe('local');
  });

  it('says a file that exists but imports a missing package failed to load, with Node’s cause', async () => {
    const dir = makeTempDir('home');
    writeFile(
      dir,
      'plugins/local.mjs',
      `import { definePlugin } from '@webhook-gateway/core';\nexport default definePlugin({ name: 'local', setup() {} });\n`,
    );
    const failure = importPlugin('./plugins/local.mjs', dir);
    await expect(failure).rejects.toThrow(
      /^plugin \.\/plugins\/local\.mjs: failed to load: Cannot find package '@webhook-gateway\/core' imported from /,
    );
    await expect(failure).rejects.not.toThrow('not installed');
  });

  it('says a package whose own import fails failed to load, not that it is not installed', async () => {
    const dir = makeTempDir('home');
    installPackage(dir, '@acme/broken', `import '@acme/missing-dependency';\nexport default 1;\n`);
    await expect(importPlugin('@acme/broken', dir)).rejects.toThrow(
      /^plugin @acme\/broken: failed to load: Cannot find package '@acme\/missing-dependency'/,
    );
  });

  it('says a module whose default export is not a plugin failed to load', async () => {
    const dir = makeTempDir('home');
    installPackage(dir, '@acme/not-a-plugin', 'export default { name: "x" };\n');
    await expect(importPlugin('@acme/not-a-plugin', dir)).rejects.toThrow(
      'plugin @acme/not-a-plugin: failed to load: its default export is not a plugin (use definePlugin)',
    );
  });
});
