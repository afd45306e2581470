/**
 * Throughput and latency of the three receivers: a saturation run (requests per second, p50/p99,
 * server CPU per request, peak RSS) and a fixed-rate run at 1,000 requests per second (p99).
 * Each run gets a fresh process, warmed up first, so one run's backlog never slows the next.
 */
import { runLoad } from '../lib/load.mjs';
import { progress } from '../lib/log.mjs';
import { cpuSeconds, logCounter, memoryMiB } from '../lib/proc.mjs';
import { TARGETS } from '../lib/targets.mjs';

/**
 * @typedef {object} ThroughputSettings
 * @property {number} connections
 * @property {number} warmupS
 * @property {number} durationS
 * @property {number} fixedRate requests per second of the fixed-rate run
 */

/**
 * @param {import('../lib/targets.mjs').Target} target
 * @param {ThroughputSettings} settings
 */
async function saturation(target, settings) {
  const server = await target.start();
  try {
    const url = `${server.url}${target.path}`;
    await runLoad({ url, connections: settings.connections, durationS: settings.warmupS });
    const delivered = server.home ? logCounter(server.home, '"msg":"delivered"') : undefined;
    delivered?.update();
    const deliveredBefore = delivered?.count ?? 0;
    const cpuBefore = cpuSeconds(server.pid) ?? NaN;
    const load = await runLoad({
      url,
      connections: settings.connections,
      durationS: settings.durationS,
      firstNumber: 1_000_000,
    });
    const cpuUsed = (cpuSeconds(server.pid) ?? NaN) - cpuBefore;
    return {
      ...load,
      cpuMicrosPerRequest: (cpuUsed / load.ok) * 1e6,
      peakRssMiB: memoryMiB(server.pid, 'VmHWM'),
      // For the gateway: deliveries its workers finished while the receiver was measured.
      processedPerSecond: delivered
        ? (delivered.update() - deliveredBefore) / load.durationS
        : undefined,
    };
  } finally {
    await server.stop();
  }
}

/**
 * @param {import('../lib/targets.mjs').Target} target
 * @param {ThroughputSettings} settings
 */
async function fixedRate(target, settings) {
  const server = await target.start();
  try {
    const url = `${server.url}${target.path}`;
    const common = { url, connections: settings.connections, overallRate: settings.fixedRate };
    await runLoad({ ...common, durationS: settings.warmupS });
    return await runLoad({ ...common, durationS: settings.durationS, firstNumber: 2_000_000 });
  } finally {
    await server.stop();
  }
}

/** @param {ThroughputSettings} settings */
export async function measureThroughput(settings) {
  /** @type {Record<string, Awaited<ReturnType<typeof saturation>>>} */
  const saturated = {};
  /** @type {Record<string, Awaited<ReturnType<typeof fixedRate>>>} */
  const fixed = {};
  for (const target of TARGETS) {
    progress(
      `throughput ${target.id}: ${settings.durationS} s at ${settings.connections} connections`,
    );
    saturated[target.id] = await saturation(target, settings);
    const s = saturated[target.id];
    progress(
      `  ${s?.requestsPerSecond.toFixed(0)} req/s, p50 ${s?.p50Ms.toFixed(2)} ms, p99 ${s?.p99Ms.toFixed(2)} ms`,
    );
    progress(`fixed rate ${target.id}: ${settings.fixedRate} req/s for ${settings.durationS} s`);
    fixed[target.id] = await fixedRate(target, settings);
    const f = fixed[target.id];
    progress(`  p50 ${f?.p50Ms.toFixed(2)} ms, p99 ${f?.p99Ms.toFixed(2)} ms`);
  }
  return { saturated, fixed };
}
