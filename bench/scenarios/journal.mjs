/**
 * What a durable accept costs by itself: the embedded SQLite store opened as the gateway opens it
 * (checkpoints on their own thread), journaling the benchmark's ~6 KB payloads with fresh
 * delivery ids in group commits, with no HTTP, signature or parsing around it. CPU counts every
 * thread of this process (the checkpointer's included) per accept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '@webhook-gateway/store-sqlite';
import { progress } from '../lib/log.mjs';
import { HOUR_MS, journalBodies, newDelivery } from '../lib/journal-rows.mjs';

const BODIES = 256;

/**
 * @param {{ accepts: number, batch: number }} settings
 * @returns {Promise<{ accepts: number, batch: number, cpuMicrosPerAccept: number, wallMicrosPerAccept: number }>}
 */
export async function measureJournal(settings) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-bench-journal-'));
  const store = openSqliteStore({ path: path.join(dir, 'state.db'), backgroundCheckpoints: true });
  try {
    const bodies = journalBodies(BODIES);
    /** @param {number} first @param {number} count */
    const acceptMany = async (first, count) => {
      for (let i = first; i < first + count; i += settings.batch) {
        const batch = Array.from({ length: settings.batch }, (_, j) => {
          const body = /** @type {(typeof bodies)[number]} */ (bodies[(i + j) % BODIES]);
          return store.accept(newDelivery(body, (i + j) % BODIES), HOUR_MS);
        });
        await Promise.all(batch);
      }
    };
    await acceptMany(0, Math.min(2_000, settings.accepts));
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    await acceptMany(0, settings.accepts);
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = performance.now() - wallBefore;
    const result = {
      accepts: settings.accepts,
      batch: settings.batch,
      cpuMicrosPerAccept: (cpu.user + cpu.system) / settings.accepts,
      wallMicrosPerAccept: (wallMs * 1000) / settings.accepts,
    };
    progress(
      `journal: ${result.cpuMicrosPerAccept.toFixed(0)} µs CPU, ${result.wallMicrosPerAccept.toFixed(0)} µs wall per accept`,
    );
    return result;
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
