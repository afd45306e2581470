/**
 * Where the running CLI is installed (a global prefix or a project), so plugins installed beside
 * it are found from there, sharing its copy of core, and a missing one is named with the right
 * `npm install`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginSearch } from '@webhook-gateway/core/runtime';

export interface CliInstall {
  /** The CLI package's own folder (…/node_modules/@webhook-gateway/cli, or packages/cli here). */
  packageDir: string;
  /** `global`: `npm install -g`; `project`: `npm install` in a project (or this repository). */
  kind: 'global' | 'project';
  /** The global prefix, or the project's folder. */
  root: string;
}

function isDir(dir: string): boolean {
  return fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/**
 * How the CLI whose package folder is `packageDir` was installed. npm's global layout is
 * `<prefix>/lib/node_modules/<pkg>` (`<prefix>/node_modules/<pkg>` on Windows, beside the
 * `.cmd` shims); anything else inside a `node_modules` is a project's, and a folder outside one
 * (a workspace of this repository) belongs to the nearest folder above it that has node_modules.
 */
export function cliInstallAt(packageDir: string): CliInstall {
  const marker = `${path.sep}node_modules${path.sep}`;
  const index = packageDir.lastIndexOf(marker);
  if (index >= 0) {
    const holder = packageDir.slice(0, index);
    const isProject = fs.existsSync(path.join(holder, 'package.json'));
    if (!isProject && path.basename(holder) === 'lib') {
      return { packageDir, kind: 'global', root: path.dirname(holder) };
    }
    if (!isProject && fs.existsSync(path.join(holder, 'webhook-gateway.cmd'))) {
      return { packageDir, kind: 'global', root: holder };
    }
    return { packageDir, kind: 'project', root: holder };
  }
  let dir = path.dirname(packageDir);
  while (!isDir(path.join(dir, 'node_modules')) && path.dirname(dir) !== dir) {
    dir = path.dirname(dir);
  }
  return { packageDir, kind: 'project', root: dir };
}

/** The running CLI's install (its package folder is the parent of dist/). */
function runningCliInstall(): CliInstall {
  const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  return cliInstallAt(fs.realpathSync(packageDir));
}

/** npm's default global prefix: where `npm install -g` puts packages when nothing overrides it. */
function defaultGlobalPrefix(): string {
  return process.platform === 'win32'
    ? path.dirname(process.execPath)
    : path.dirname(path.dirname(process.execPath));
}

/** The one command that installs a package beside this CLI. */
export function installCommandFor(install: CliInstall, packageName: string): string {
  if (install.kind === 'global') {
    const prefix =
      path.resolve(install.root) === path.resolve(defaultGlobalPrefix())
        ? ''
        : ` --prefix ${install.root}`;
    return `npm install -g${prefix} ${packageName}`;
  }
  return `cd ${install.root} && npm install ${packageName}`;
}

/** Plugins are looked up from the config file's directory, then beside the CLI. */
export function pluginSearch(configDir: string, install = runningCliInstall()): PluginSearch {
  const where = install.kind === 'global' ? 'global prefix' : 'project';
  return {
    configDir,
    besides: [
      { dir: install.packageDir, label: `beside the CLI, in the ${where} ${install.root}` },
    ],
    installCommand: (packageName) => installCommandFor(install, packageName),
  };
}
