/**
 * What the journal costs per delivery from accept to delivered, the SQLite store alone: accepts
 * in group commits of 16, then each delivery's attempt as an attempt writes it with the
 * `dry-run` agent (markRunning, the prompt saved without waiting, the answer with its
 * accounting, markDelivered), 16 attempts at once. Prints CPU µs per delivery (every thread).
 *
 * Usage: node bench/journal-lifecycle.mjs [deliveries] [store module]
 * (the module defaults to @webhook-gateway/store-sqlite; give another build's dist/index.js to A/B)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HOUR_MS, journalBodies, newDelivery } from './lib/journal-rows.mjs';

const count = Number(process.argv[2] ?? 10_000);
const modulePath = process.argv[3];
const { openSqliteStore } = await import(
  modulePath ? pathToFileURL(path.resolve(modulePath)).href : '@webhook-gateway/store-sqlite'
);
const BATCH = 16;
const BODIES = 256;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-bench-lifecycle-'));
const store = openSqliteStore({ path: path.join(dir, 'state.db'), backgroundCheckpoints: true });
const bodies = journalBodies(BODIES);

/** One attempt, written as an attempt writes it with the dry-run agent and the log target. */
async function attempt(id) {
  const record = await store.markRunning(id, Date.now());
  if (!record || typeof record.payload !== 'object') throw new Error(`no row ${id}`);
  const prompt = `Review PR #${record.payload.number}: ${record.payload.pull_request.title}`;
  const saved = store.saveProgress(id, { prompt });
  await store.saveProgress(id, { answer: prompt, agent: { runner: 'dry-run' } });
  await store.markDelivered(id, Date.now());
  await saved;
}

async function deliverMany(first, n) {
  for (let i = first; i < first + n; i += BATCH) {
    const accepted = await Promise.all(
      Array.from({ length: BATCH }, (_, j) => {
        const body = bodies[(i + j) % BODIES];
        return store.accept(newDelivery(body, (i + j) % BODIES), HOUR_MS);
      }),
    );
    await Promise.all(accepted.map((result) => attempt(result.record.id)));
  }
}

try {
  await deliverMany(0, 2_000);
  const before = process.cpuUsage();
  await deliverMany(0, count);
  const cpu = process.cpuUsage(before);
  console.log(((cpu.user + cpu.system) / count).toFixed(1));
} finally {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
