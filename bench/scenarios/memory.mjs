/**
 * Memory: RSS of the gateway after 100,000 accepted deliveries (unique ids, `log` target,
 * `dry-run` agent, rate limit out of the way, the default 1 h de-duplication window, so every id
 * is still held), after its workers have drained them, and the peak over the whole run — once as
 * shipped, and once with V8's heap capped, which tells garbage awaiting a full GC (gone under the
 * cap) from memory the gateway really holds (still there).
 */
import { gatewayConfig, ROUTE } from '../lib/gateway-config.mjs';
import { runLoad } from '../lib/load.mjs';
import { pollUntil, progress } from '../lib/log.mjs';
import {
  getGatewayNodeOptions,
  logCounter,
  makeHome,
  memoryMiB,
  removeHome,
  sampleRss,
  startGateway,
} from '../lib/proc.mjs';
import { summarizeRss } from './slow-agent.mjs';

/** The capped variant's V8 flag: old generation at most 96 MiB. */
const HEAP_CAP = '--max-old-space-size=96';

/**
 * @param {{ deliveries: number, connections: number }} settings
 * @param {string} nodeOptions NODE_OPTIONS of the gateway process
 */
async function measureVariant(settings, nodeOptions) {
  const home = makeHome();
  try {
    const gateway = await startGateway(home, gatewayConfig(), [], nodeOptions);
    try {
      const delivered = logCounter(home, '"msg":"delivered"');
      const rss = sampleRss(gateway.pid, 1_000);
      const startMiB = memoryMiB(gateway.pid, 'VmRSS');
      progress(
        `memory (${nodeOptions || 'as shipped'}): sending ${settings.deliveries} deliveries`,
      );
      const sent = await runLoad({
        url: `${gateway.url}/webhooks/${ROUTE}`,
        connections: settings.connections,
        amount: settings.deliveries,
      });
      const afterSendMiB = memoryMiB(gateway.pid, 'VmRSS');
      progress(
        `  accepted ${sent.ok} at ${sent.requestsPerSecond.toFixed(0)}/s; draining the workers`,
      );
      const drained = await pollUntil(() => delivered.update() >= sent.ok, 600_000, 1_000);
      const afterDrainMiB = memoryMiB(gateway.pid, 'VmRSS');
      const peakMiB = memoryMiB(gateway.pid, 'VmHWM');
      const samples = rss.stop();
      const result = {
        nodeOptions,
        deliveries: settings.deliveries,
        accepted: sent.ok,
        non2xx: sent.non2xx,
        delivered: delivered.count,
        drained,
        acceptedPerSecond: sent.requestsPerSecond,
        startMiB,
        afterSendMiB,
        afterDrainMiB,
        peakMiB,
        rss: summarizeRss(samples),
      };
      progress(
        `  RSS after sending ${afterSendMiB?.toFixed(0)} MiB, after draining ${afterDrainMiB?.toFixed(0)} MiB, ` +
          `peak ${peakMiB?.toFixed(0)} MiB`,
      );
      return result;
    } finally {
      await gateway.stop();
    }
  } finally {
    removeHome(home);
  }
}

/** @param {{ deliveries: number, connections: number }} settings */
export async function measureMemory(settings) {
  const shipped = getGatewayNodeOptions();
  return {
    variants: [
      await measureVariant(settings, shipped),
      await measureVariant(settings, [shipped, HEAP_CAP].filter(Boolean).join(' ')),
    ],
  };
}
