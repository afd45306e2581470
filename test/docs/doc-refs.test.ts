/**
 * `scripts/check-doc-refs.mjs` (part of `npm run lint`) against the repository and against small
 * trees with one broken reference each: it must pass the first and name the break in the others.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/gateway.js';

const script = path.join(repoRoot, 'scripts/check-doc-refs.mjs');
const roots: string[] = [];
/** A ref to a heading that does not exist, built so this file does not hold one itself. */
const missingHeadingRef = ['docs/contract.md', 'order'].join('#');

interface CheckResult {
  code: number;
  stderr: string;
}

async function check(root: string): Promise<CheckResult> {
  try {
    await promisify(execFile)(process.execPath, [script, '--root', root]);
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, stderr: failed.stderr ?? '' };
  }
}

/** A tree with a README, two docs and a source file; `files` replaces or adds some. */
function tree(files: Record<string, string> = {}): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-refs-'));
  roots.push(root);
  const all: Record<string, string> = {
    'README.md': '# Project\n\nSee [the contract](docs/contract.md#the-order-of-checks).\n',
    'docs/contract.md':
      '# Contract\n\n## The order of checks\n\n## Headers: `X-Forge-Event` and others\n\n## Headers: `X-Forge-Event` and others\n',
    'docs/guide.md':
      '# Guide\n\n[headers](contract.md#headers-x-forge-event-and-others-1), [top](#guide)\n\n```\n[not a link](nowhere.md)\n```\n',
    'packages/core/src/receiver.ts':
      '/** The checks of `docs/contract.md#the-order-of-checks`, in order. */\nexport const x = 1;\n',
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

describe('check-doc-refs', () => {
  it('passes the repository as it is', async () => {
    expect(await check(repoRoot)).toEqual({ code: 0, stderr: '' });
  });

  it('passes a tree whose links, anchors (duplicates too) and comment refs all resolve', async () => {
    expect(await check(tree())).toEqual({ code: 0, stderr: '' });
  });

  it('names a markdown link to a heading that does not exist', async () => {
    const result = await check(
      tree({ 'docs/guide.md': '# Guide\n\nSee [it](contract.md#the-order-of-check).\n' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'docs/guide.md:3: no heading #the-order-of-check in contract.md (contract.md#the-order-of-check)',
    );
  });

  it('names a markdown link to a file that does not exist', async () => {
    const result = await check(tree({ 'README.md': '# Project\n\n[map](docs/map.md)\n' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('README.md:3: no file docs/map.md (docs/map.md)');
  });

  it('names a source comment whose docs heading does not exist', async () => {
    const result = await check(
      tree({ 'packages/core/src/receiver.ts': `// See ${missingHeadingRef}.\nexport {};\n` }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `packages/core/src/receiver.ts:1: no heading #order in contract.md (${missingHeadingRef})`,
    );
  });

  it('names a section-numbered reference to a document outside the repository', async () => {
    const result = await check(
      tree({
        'packages/core/src/rate-limit.ts': `/** A rate limit (DESIGN \u00a74.2 row 4). */\n`,
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'packages/core/src/rate-limit.ts:1: a section-numbered reference',
    );
  });
});
