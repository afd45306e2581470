/**
 * The table of who taps which hook in docs/architecture.md matches what the built plugins tap
 * (`scripts/hook-taps.mjs`, which `npm run docs:hook-taps` runs to rewrite it).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/gateway.js';

const script = path.join(repoRoot, 'scripts/hook-taps.mjs');
const architecture = path.join(repoRoot, 'docs/architecture.md');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hook-taps-doc-'));

async function hookTaps(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await promisify(execFile)(process.execPath, [script, ...args]);
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, stderr: failed.stderr ?? '' };
  }
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the hook-taps table of docs/architecture.md', () => {
  it('lists what the built-in plugins tap', async () => {
    expect(await hookTaps()).toEqual({ code: 0, stderr: '' });
  });

  it('fails on a doc that leaves a tap out, and --write puts it back', async () => {
    const doc = path.join(dir, 'architecture.md');
    const text = fs.readFileSync(architecture, 'utf8');
    // The filter row without the forge plugin's loop-guard tap.
    const guard = ', `@webhook-gateway/deliver-forge-comment`';
    const row = `| \`filter\` |  | \`@webhook-gateway/core\``;
    expect(text).toContain(`${row}${guard}`);
    fs.writeFileSync(doc, text.replace(`${row}${guard}`, row));

    const checked = await hookTaps('--doc', doc);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain('run `npm run docs:hook-taps` to rewrite it');

    expect(await hookTaps('--doc', doc, '--write')).toEqual({ code: 0, stderr: '' });
    expect(fs.readFileSync(doc, 'utf8')).toBe(text);
  });
});
