/**
 * `webhook-gateway plugin init`: the package it writes, of each kind, passes its own `npm test`
 * as written. The package is written in a temporary folder whose node_modules is this
 * repository's, so its `@webhook-gateway/core`, zod and vitest are this repository's
 * (test/e2e/install-from-packs.test.ts installs one the way a user does, from packed tarballs).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../support/gateway.js';

const run = promisify(execFile);
// Outside the repository, so the plugin's vitest does not find this repository's config.
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-plugin-init-'));
fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(workDir, 'node_modules'));

afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe('plugin init', () => {
  for (const kind of ['target', 'scheme', 'runner', 'store'] as const) {
    it(`writes a ${kind} plugin package whose npm test passes`, { timeout: 120_000 }, async () => {
      const dir = path.join(workDir, kind);
      const name = `@acme/webhook-gateway-${kind}-demo`;
      const result = await runCli(['plugin', 'init', name, '--kind', kind, '--dir', dir]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const manifest = JSON.parse(
        fs.readFileSync(path.join(dir, 'package.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(manifest).toMatchObject({
        name,
        type: 'module',
        exports: { '.': './src/index.js' },
        peerDependencies: { '@webhook-gateway/core': '^0.1.0' },
        devDependencies: { '@webhook-gateway/core': '^0.1.0', vitest: '^4.1.12' },
        scripts: { test: 'vitest run' },
      });
      expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain(
        `npm install -g ${name}`,
      );
      // Rejects on a non-zero exit, with vitest's report in the error.
      const test = await run('npm', ['test', '--silent'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      });
      expect(test.stdout).toMatch(/Tests\s+\d+ passed \(\d+\)/);
    });
  }

  it('refuses a name npm would not accept, and a folder that is not empty', async () => {
    const bad = await runCli(['plugin', 'init', 'Not A Name']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('must be an npm package name');
    const dir = path.join(workDir, 'taken');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'keep.txt'), 'mine');
    const taken = await runCli(['plugin', 'init', '@acme/x', '--dir', dir]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain(`${dir} exists and is not empty`);
  });
});
