import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { distEntry, ensureBuilt } from './test-support/build.js';
import { useTestStores } from './test-support/stores.js';

const { dir, open } = useTestStores();
const acceptUntilKilled = fileURLToPath(
  new URL('./test-support/accept-until-killed.mjs', import.meta.url),
);

/**
 * How many resolved accepts to see before the kill: enough for many batches in flight and for
 * background checkpoints to have run (one every 200 ms).
 */
const KILL_AFTER = 4000;

/**
 * Runs the child until it has reported `KILL_AFTER` resolved accepts, SIGKILLs it in the middle
 * of its stream, and returns every delivery id it reported.
 */
async function acceptThenKill(file: string, fsync: boolean): Promise<string[]> {
  const child = spawn(process.execPath, [acceptUntilKilled, distEntry, file, String(fsync)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const reported: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('accepted ')) reported.push(line.slice('accepted '.length));
    }
    if (reported.length >= KILL_AFTER) child.kill('SIGKILL');
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, exitSignal) => resolve(exitSignal)),
  );
  if (signal !== 'SIGKILL') throw new Error(`the child exited on its own: ${stderr}`);
  return reported;
}

describe('durability', () => {
  beforeAll(() => ensureBuilt());

  it.each([false, true])(
    'after kill -9, every delivery whose accept had resolved is in the journal (fsync: %s)',
    async (fsync) => {
      const file = path.join(dir(), 'state.db');
      const reported = await acceptThenKill(file, fsync);
      expect(reported.length).toBeGreaterThanOrEqual(KILL_AFTER);

      const check = new Database(file);
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      check.close();
      const store = open(file);
      const journaled = new Set((await store.list({ limit: 1_000_000 })).map((r) => r.deliveryId));
      const missing = reported.filter((deliveryId) => !journaled.has(deliveryId));
      expect(missing).toEqual([]);
    },
  );
});
