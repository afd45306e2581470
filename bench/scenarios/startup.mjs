/** Start-up time: spawn → the listening line on stdout, median of a few cold starts. */
import { progress } from '../lib/log.mjs';
import { TARGETS } from '../lib/targets.mjs';

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? /** @type {number} */ (sorted[middle])
    : /** @type {number} */ (sorted[middle - 1] + /** @type {number} */ (sorted[middle])) / 2;
}

/**
 * @param {{ runs: number }} settings
 * @returns {Promise<Record<string, { medianMs: number, minMs: number, maxMs: number, runs: number }>>}
 */
export async function measureStartup(settings) {
  /** @type {Record<string, { medianMs: number, minMs: number, maxMs: number, runs: number }>} */
  const results = {};
  for (const target of TARGETS) {
    /** @type {number[]} */
    const times = [];
    for (let run = 0; run < settings.runs; run++) {
      const started = await target.start();
      times.push(started.startupMs);
      await started.stop();
    }
    results[target.id] = {
      medianMs: median(times),
      minMs: Math.min(...times),
      maxMs: Math.max(...times),
      runs: times.length,
    };
    progress(`start-up ${target.id}: median ${results[target.id]?.medianMs.toFixed(0)} ms`);
  }
  return results;
}
