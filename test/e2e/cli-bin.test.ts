/**
 * The `webhook-gateway` bin as npm links it: a committed shim that starts the built entry, and
 * one clear line (no stack trace) when the build is missing.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/gateway.js';

const run = promisify(execFile);
const shim = path.join(repoRoot, 'packages/cli/bin/webhook-gateway.js');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-bin-'));

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A package folder holding a copy of the shim, with or without a built entry beside it. */
function packageWithShim(name: string, builtEntry?: string): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  fs.copyFileSync(shim, path.join(dir, 'bin/webhook-gateway.js'));
  if (builtEntry !== undefined) {
    fs.mkdirSync(path.join(dir, 'dist'));
    fs.writeFileSync(path.join(dir, 'dist/bin.js'), builtEntry);
  }
  return path.join(dir, 'bin/webhook-gateway.js');
}

describe('the webhook-gateway bin', () => {
  it('is linked by npm install, and prints the help through the shim', async () => {
    const linked = path.join(repoRoot, 'node_modules/.bin/webhook-gateway');
    expect(fs.realpathSync(linked)).toBe(fs.realpathSync(shim));
    const { stdout } = await run(linked, ['--help']);
    expect(stdout).toMatch(/^Usage: webhook-gateway /);
  });

  it('starts the built entry with the same arguments', async () => {
    const bin = packageWithShim('built', 'console.log(JSON.stringify(process.argv.slice(2)));\n');
    const { stdout } = await run(process.execPath, [bin, 'deliveries', 'list', '--json']);
    expect(JSON.parse(stdout)).toEqual(['deliveries', 'list', '--json']);
  });

  it('says in one line to build when the build is missing, without a stack trace', async () => {
    const bin = packageWithShim('unbuilt');
    const failed = await run(process.execPath, [bin, '--help']).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toBe('');
    expect(failed?.stderr).toBe('webhook-gateway is not built yet: run npm run build\n');
  });
});
