import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliInstallAt, installCommandFor, pluginSearch } from './cli-install.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder with the given files (relative path → content; a trailing / is a folder). */
function tree(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wg-cli-install-')));
  made.push(root);
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    if (relative.endsWith('/')) fs.mkdirSync(target, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
    }
  }
  return root;
}

const CLI = path.join('node_modules', '@webhook-gateway', 'cli');

describe('how the CLI was installed', () => {
  it('knows a global prefix by npm’s layout <prefix>/lib/node_modules', () => {
    const prefix = tree({ [path.join('lib', CLI, 'package.json')]: '{}', 'bin/': '' });
    expect(cliInstallAt(path.join(prefix, 'lib', CLI))).toEqual({
      packageDir: path.join(prefix, 'lib', CLI),
      kind: 'global',
      root: prefix,
    });
  });

  it('knows a project by the package.json beside its node_modules', () => {
    const project = tree({ 'package.json': '{}', [path.join(CLI, 'package.json')]: '{}' });
    expect(cliInstallAt(path.join(project, CLI))).toMatchObject({ kind: 'project', root: project });
  });

  it('takes a project folder named lib for a project, not a prefix', () => {
    const parent = tree({
      'lib/package.json': '{}',
      [path.join('lib', CLI, 'package.json')]: '{}',
    });
    expect(cliInstallAt(path.join(parent, 'lib', CLI))).toMatchObject({
      kind: 'project',
      root: path.join(parent, 'lib'),
    });
  });

  it('takes a workspace outside node_modules for the project that holds the node_modules above it', () => {
    const repo = tree({
      'package.json': '{}',
      'node_modules/': '',
      'packages/cli/package.json': '{}',
    });
    expect(cliInstallAt(path.join(repo, 'packages/cli'))).toMatchObject({
      kind: 'project',
      root: repo,
    });
  });
});

describe('the command that installs a plugin beside the CLI', () => {
  it('is npm install -g for the default global prefix, with --prefix for another', () => {
    const defaultPrefix = path.dirname(path.dirname(process.execPath));
    const packageDir = path.join(defaultPrefix, 'lib', CLI);
    expect(installCommandFor({ packageDir, kind: 'global', root: defaultPrefix }, '@acme/p')).toBe(
      'npm install -g @acme/p',
    );
    expect(installCommandFor({ packageDir, kind: 'global', root: '/opt/wg' }, '@acme/p')).toBe(
      'npm install -g --prefix /opt/wg @acme/p',
    );
  });

  it('is npm install in the project that holds the CLI', () => {
    expect(
      installCommandFor({ packageDir: '/srv/app/x', kind: 'project', root: '/srv/app' }, '@acme/p'),
    ).toBe('cd /srv/app && npm install @acme/p');
  });
});

describe('where plugins are looked for', () => {
  it('is the config file’s directory, then the CLI’s own package folder', () => {
    const install = { packageDir: '/opt/wg/lib/' + CLI, kind: 'global' as const, root: '/opt/wg' };
    const search = pluginSearch('/home/me/.webhook-gateway', install);
    expect(search.configDir).toBe('/home/me/.webhook-gateway');
    expect(search.besides).toEqual([
      { dir: install.packageDir, label: 'beside the CLI, in the global prefix /opt/wg' },
    ]);
    expect(search.installCommand?.('@acme/p')).toBe('npm install -g --prefix /opt/wg @acme/p');
  });
});
