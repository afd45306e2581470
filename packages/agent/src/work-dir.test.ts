import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureWorkDir, pruneWorkDirs } from './work-dir.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

describe('pruneWorkDirs', () => {
  it('removes work directories older than the retention and keeps recent ones', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-workdir-'));
    homes.push(home);
    const old = await ensureWorkDir(home, 'old-delivery');
    const recent = await ensureWorkDir(home, 'recent-delivery');
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
    fs.utimesSync(old, tenDaysAgo, tenDaysAgo);
    expect(await pruneWorkDirs(home, 7 * 86_400_000)).toBe(1);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(recent)).toBe(true);
  });

  it('does nothing when there is no work directory yet', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-workdir-'));
    homes.push(home);
    expect(await pruneWorkDirs(home, 1)).toBe(0);
  });
});
