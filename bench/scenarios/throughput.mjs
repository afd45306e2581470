/**
 * The receivers side by side, in interleaved rounds (receiver A, B, C, D, then again), so a burst
 * of other work on the machine lands on every receiver alike; the report takes medians.
 *
 * - Saturation: wrk (autocannon when wrk is missing) for `durationS` per round. The server's CPU
 *   comes from /proc/<pid>/stat (every thread) from the start of the load until `settleS` after
 *   it and, for the gateway, until its workers have delivered every delivery of the round (the
 *   draining counts, and no backlog spills into the next round); divided by the 2xx answers.
 * - Paced: a fixed rate (a Node client in its own process, latency from each request's due time)
 *   on fresh servers, again interleaved; p50/p99 per round.
 */
import { runLoad } from '../lib/load.mjs';
import { pollUntil, progress, sleep } from '../lib/log.mjs';
import { cpuSeconds, logCounter, memoryMiB } from '../lib/proc.mjs';
import { TARGETS } from '../lib/targets.mjs';
import { runWrk, wrkInstalled } from '../lib/wrk.mjs';

/**
 * @typedef {object} ThroughputSettings
 * @property {number} connections
 * @property {number} rounds
 * @property {number} warmupS
 * @property {number} durationS
 * @property {number} settleS CPU is counted until at least this long after the load
 * @property {number} fixedRate requests per second of the paced rounds
 * @property {number} pacedS
 */

/** @param {number[]} values */
export function median(values) {
  const sorted = [...values].filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? /** @type {number} */ (sorted[middle])
    : /** @type {number} */ (sorted[middle - 1] + /** @type {number} */ (sorted[middle])) / 2;
}

/** @param {typeof TARGETS} targets */
async function startAll(targets) {
  /** @type {Map<string, import('../lib/targets.mjs').Running>} */
  const servers = new Map();
  for (const target of targets) servers.set(target.id, await target.start());
  return servers;
}

/** @param {Map<string, import('../lib/targets.mjs').Running>} servers */
async function stopAll(servers) {
  for (const server of servers.values()) await server.stop();
}

/**
 * @param {ThroughputSettings} settings
 * @param {boolean} useWrk
 */
async function saturationRounds(settings, useWrk) {
  /** @param {string} url @param {number} durationS @param {number} firstNumber */
  const load = (url, durationS, firstNumber) =>
    useWrk
      ? runWrk({ url, connections: settings.connections, durationS, firstNumber })
      : runLoad({ url, connections: settings.connections, durationS, firstNumber });
  const servers = await startAll(TARGETS);
  /** @type {Record<string, any[]>} */
  const rounds = Object.fromEntries(TARGETS.map((t) => [t.id, []]));
  try {
    for (const target of TARGETS) {
      const server = /** @type {import('../lib/targets.mjs').Running} */ (servers.get(target.id));
      await load(`${server.url}${target.path}`, settings.warmupS, 1);
    }
    for (let round = 0; round < settings.rounds; round++) {
      for (const target of TARGETS) {
        const server = /** @type {import('../lib/targets.mjs').Running} */ (servers.get(target.id));
        const delivered = server.home ? logCounter(server.home, '"msg":"delivered"') : undefined;
        delivered?.update();
        const deliveredBefore = delivered?.count ?? 0;
        const cpuBefore = cpuSeconds(server.pid) ?? NaN;
        const result = await load(
          `${server.url}${target.path}`,
          settings.durationS,
          1_000_000 * (round + 1),
        );
        await sleep(settings.settleS * 1000);
        // The gateway's workers finish this round's deliveries before the CPU is read, so a
        // round's backlog is neither lost nor charged to the next round.
        if (delivered) {
          await pollUntil(() => delivered.update() - deliveredBefore >= result.ok, 120_000, 200);
        }
        const cpuUsed = (cpuSeconds(server.pid) ?? NaN) - cpuBefore;
        const row = {
          ...result,
          cpuMicrosPerRequest: (cpuUsed / result.ok) * 1e6,
          // The gateway: deliveries its workers finished in the round and its settling time.
          delivered: delivered ? delivered.update() - deliveredBefore : undefined,
        };
        /** @type {any[]} */ (rounds[target.id]).push(row);
        progress(
          `  round ${round + 1} ${target.id}: ${row.cpuMicrosPerRequest.toFixed(0)} µs CPU/req, ` +
            `${row.requestsPerSecond.toFixed(0)} req/s, p99 ${row.p99Ms.toFixed(2)} ms` +
            (row.delivered !== undefined ? `, ${row.delivered} delivered` : ''),
        );
      }
    }
    /** @type {Record<string, number | undefined>} */
    const peakRssMiB = {};
    for (const target of TARGETS) {
      peakRssMiB[target.id] = memoryMiB(/** @type {any} */ (servers.get(target.id)).pid, 'VmHWM');
    }
    return { rounds, peakRssMiB };
  } finally {
    await stopAll(servers);
  }
}

/** @param {ThroughputSettings} settings */
async function pacedRounds(settings) {
  const servers = await startAll(TARGETS);
  /** @type {Record<string, any[]>} */
  const rounds = Object.fromEntries(TARGETS.map((t) => [t.id, []]));
  try {
    const common = { connections: settings.connections, overallRate: settings.fixedRate };
    for (const target of TARGETS) {
      const server = /** @type {import('../lib/targets.mjs').Running} */ (servers.get(target.id));
      await runLoad({ ...common, url: `${server.url}${target.path}`, durationS: settings.warmupS });
    }
    for (let round = 0; round < settings.rounds; round++) {
      for (const target of TARGETS) {
        const server = /** @type {import('../lib/targets.mjs').Running} */ (servers.get(target.id));
        const result = await runLoad({
          ...common,
          url: `${server.url}${target.path}`,
          durationS: settings.pacedS,
          firstNumber: 5_000_000 + 1_000_000 * round,
        });
        /** @type {any[]} */ (rounds[target.id]).push(result);
        progress(
          `  paced round ${round + 1} ${target.id}: p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms`,
        );
      }
    }
    return rounds;
  } finally {
    await stopAll(servers);
  }
}

/** @param {ThroughputSettings} settings */
export async function measureThroughput(settings) {
  const useWrk = wrkInstalled();
  const generator = useWrk ? 'wrk' : 'autocannon';
  progress(
    `saturation with ${generator}${useWrk ? ' (installed)' : ' (wrk is not installed)'}: ` +
      `${settings.rounds} interleaved rounds of ${settings.durationS} s, ${settings.connections} connections`,
  );
  const saturated = await saturationRounds(settings, useWrk);
  progress(
    `paced ${settings.fixedRate} req/s: ${settings.rounds} interleaved rounds of ${settings.pacedS} s`,
  );
  const paced = await pacedRounds(settings);
  /** @type {Record<string, any>} */
  const summary = {};
  for (const target of TARGETS) {
    const sat = /** @type {any[]} */ (saturated.rounds[target.id]);
    const fix = /** @type {any[]} */ (paced[target.id]);
    summary[target.id] = {
      cpuMicrosPerRequest: median(sat.map((r) => r.cpuMicrosPerRequest)),
      cpuMicrosPerRequestRounds: sat.map((r) => r.cpuMicrosPerRequest),
      requestsPerSecond: median(sat.map((r) => r.requestsPerSecond)),
      p50Ms: median(sat.map((r) => r.p50Ms)),
      p99Ms: median(sat.map((r) => r.p99Ms)),
      peakRssMiB: saturated.peakRssMiB[target.id],
      pacedRequestsPerSecond: median(fix.map((r) => r.requestsPerSecond)),
      pacedP50Ms: median(fix.map((r) => r.p50Ms)),
      pacedP99Ms: median(fix.map((r) => r.p99Ms)),
      pacedP99MsRounds: fix.map((r) => r.p99Ms),
      non2xx: [...sat, ...fix].reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    };
  }
  return { generator, summary, saturatedRounds: saturated.rounds, pacedRounds: paced };
}
