/**
 * Start-up: spawn → the listening line on stdout, every receiver (and the start-up references)
 * once per round, rounds interleaved (so a busy moment on the machine hits all alike); medians.
 */
import { progress } from '../lib/log.mjs';
import { STARTUP_TARGETS } from '../lib/targets.mjs';
import { median } from './throughput.mjs';

/**
 * @param {{ runs: number }} settings
 * @returns {Promise<Record<string, { medianMs: number, minMs: number, maxMs: number, runs: number }>>}
 */
export async function measureStartup(settings) {
  /** @type {Record<string, number[]>} */
  const times = Object.fromEntries(STARTUP_TARGETS.map((t) => [t.id, []]));
  for (let run = 0; run < settings.runs; run++) {
    for (const target of STARTUP_TARGETS) {
      const started = await target.start();
      /** @type {number[]} */ (times[target.id]).push(started.startupMs);
      await started.stop();
    }
  }
  /** @type {Record<string, { medianMs: number, minMs: number, maxMs: number, runs: number }>} */
  const results = {};
  for (const target of STARTUP_TARGETS) {
    const all = /** @type {number[]} */ (times[target.id]);
    results[target.id] = {
      medianMs: median(all),
      minMs: Math.min(...all),
      maxMs: Math.max(...all),
      runs: all.length,
    };
    progress(`start-up ${target.id}: median ${results[target.id]?.medianMs.toFixed(0)} ms`);
  }
  return results;
}
