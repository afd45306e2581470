import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PluginNotInstalledError } from './errors.js';
import { packageNameOf, resolvePlugin, type PluginSearch } from './plugin-resolve.js';
import {
  installPackage,
  makeTempDir,
  removeTempDirs,
  writeFile,
} from './test-support/plugin-dirs.js';

afterEach(removeTempDirs);

/** A config folder and a CLI installed in a project of its own, neither holding anything yet. */
function places(): { configDir: string; cliProject: string; search: PluginSearch } {
  const configDir = makeTempDir('home');
  const cliProject = makeTempDir('project');
  const cliDir = path.join(cliProject, 'node_modules', '@webhook-gateway', 'cli');
  const search: PluginSearch = {
    configDir,
    besides: [{ dir: cliDir, label: `beside the CLI, in the project ${cliProject}` }],
    installCommand: (name) => `cd ${cliProject} && npm install ${name}`,
  };
  return { configDir, cliProject, search };
}

function urlOf(dir: string, name: string): string {
  return pathToFileURL(path.join(dir, 'node_modules', ...name.split('/'), 'index.js')).href;
}

describe('finding a package plugin', () => {
  it('takes a package from the config file’s directory first', () => {
    const { configDir, cliProject, search } = places();
    installPackage(configDir, '@acme/pager');
    installPackage(cliProject, '@acme/pager');
    expect(resolvePlugin('@acme/pager', search)).toBe(urlOf(configDir, '@acme/pager'));
  });

  it('finds a package installed beside the CLI when the config’s directory has none', () => {
    const { cliProject, search } = places();
    installPackage(cliProject, '@acme/pager');
    expect(resolvePlugin('@acme/pager', search)).toBe(urlOf(cliProject, '@acme/pager'));
  });

  it('finds a package in a global prefix from the CLI installed there', () => {
    const prefix = makeTempDir('prefix');
    const lib = path.join(prefix, 'lib');
    installPackage(lib, '@acme/pager');
    const search: PluginSearch = {
      configDir: makeTempDir('home'),
      besides: [
        { dir: path.join(lib, 'node_modules', '@webhook-gateway', 'cli'), label: 'beside the CLI' },
      ],
    };
    expect(resolvePlugin('@acme/pager', search)).toBe(urlOf(lib, '@acme/pager'));
  });

  it('says where it looked, in order, and the one command to install a missing package', () => {
    const { configDir, cliProject, search } = places();
    let caught: unknown;
    try {
      resolvePlugin('@acme/pager/plugin', search);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PluginNotInstalledError);
    expect((caught as Error).message).toBe(
      `plugin @acme/pager/plugin: is not installed (looked up from ${configDir} (the config file's directory), ` +
        `then from ${path.join(cliProject, 'node_modules', '@webhook-gateway', 'cli')} (beside the CLI, in the project ${cliProject})); ` +
        `install it with: cd ${cliProject} && npm install @acme/pager`,
    );
  });

  it('looks only in the config file’s directory when given no other place', () => {
    const configDir = makeTempDir('home');
    expect(() => resolvePlugin('@acme/pager', { configDir })).toThrow(
      `plugin @acme/pager: is not installed (looked up from ${configDir} (the config file's directory)); install it with: run "npm install @acme/pager" in ${configDir}`,
    );
  });

  it('names the package of a subpath specifier', () => {
    expect(packageNameOf('@acme/pager/plugin')).toBe('@acme/pager');
    expect(packageNameOf('pager/plugin')).toBe('pager');
    expect(packageNameOf('pager')).toBe('pager');
  });
});

describe('finding a local plugin file', () => {
  it('takes a path relative to the config file as written', () => {
    const { configDir, search } = places();
    const file = writeFile(configDir, 'plugins/local.js', 'export default 1;\n');
    expect(resolvePlugin('./plugins/local.js', search)).toBe(pathToFileURL(file).href);
  });

  it('adds .mjs, then .js, to a path written without an extension', () => {
    const { configDir, search } = places();
    const js = writeFile(configDir, 'plugins/local.js', 'export default 1;\n');
    expect(resolvePlugin('./plugins/local', search)).toBe(pathToFileURL(js).href);
    const mjs = writeFile(configDir, 'plugins/local.mjs', 'export default 1;\n');
    expect(resolvePlugin('./plugins/local', search)).toBe(pathToFileURL(mjs).href);
  });

  it('says "not installed" with the path it looked at when there is no such file', () => {
    const { configDir, search } = places();
    expect(() => resolvePlugin('./plugins/local', search)).toThrow(
      `plugin ./plugins/local: is not installed: no file at ${path.join(configDir, 'plugins/local')} (nor local.mjs or local.js)`,
    );
    expect(() => resolvePlugin('./plugins/local.mjs', search)).toThrow(
      `plugin ./plugins/local.mjs: is not installed: no file at ${path.join(configDir, 'plugins/local.mjs')}`,
    );
  });
});
