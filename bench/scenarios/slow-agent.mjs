/**
 * Slow-agent load: the `openai` runner against a fake chat-completions server that takes 500 ms
 * an answer, 16 workers, 1,000 deliveries sent as fast as the gateway takes them. The time from
 * the first request to the last `delivered` log line is compared with the ideal
 * deliveries / workers × 0.5 s; RSS is sampled every second.
 */
import { startSlowOpenAI } from '../lib/fake-openai.mjs';
import { gatewayConfig, ROUTE } from '../lib/gateway-config.mjs';
import { runLoad } from '../lib/load.mjs';
import { pollUntil, progress } from '../lib/log.mjs';
import { logCounter, makeHome, removeHome, sampleRss, startGateway } from '../lib/proc.mjs';

/**
 * @param {{ deliveries: number, workers: number, answerMs: number }} settings
 */
export async function measureSlowAgent(settings) {
  const fake = await startSlowOpenAI(settings.answerMs);
  const home = makeHome();
  try {
    const gateway = await startGateway(
      home,
      gatewayConfig({
        agent: {
          runner: 'openai',
          base_url: fake.baseUrl,
          model: 'bench-slow-model',
          terminal: { enabled: false },
        },
        extra: { concurrency: settings.workers },
      }),
    );
    try {
      const delivered = logCounter(home, '"msg":"delivered"');
      const rss = sampleRss(gateway.pid, 1_000);
      const idealS = (settings.deliveries / settings.workers) * (settings.answerMs / 1000);
      progress(
        `slow agent: ${settings.deliveries} deliveries, ${settings.workers} workers, ideal ${idealS} s`,
      );
      const startedAt = Date.now();
      const sent = await runLoad({
        url: `${gateway.url}/webhooks/${ROUTE}`,
        connections: 16,
        amount: settings.deliveries,
      });
      const sentS = (Date.now() - startedAt) / 1000;
      const done = await pollUntil(
        () => delivered.update() >= sent.ok,
        Math.max(120_000, idealS * 3_000),
        250,
      );
      const totalS = ((delivered.lastTime ?? Date.now()) - startedAt) / 1000;
      const samples = rss.stop();
      const result = {
        deliveries: settings.deliveries,
        accepted: sent.ok,
        delivered: delivered.count,
        complete: done,
        workers: settings.workers,
        answerMs: settings.answerMs,
        sendS: sentS,
        totalS,
        idealS,
        ratio: totalS / idealS,
        maxConcurrentAgentCalls: fake.stats.maxInFlight,
        rss: summarizeRss(samples),
      };
      progress(
        `  ${result.delivered}/${result.accepted} delivered in ${totalS.toFixed(2)} s = ${result.ratio.toFixed(3)}× ideal`,
      );
      return result;
    } finally {
      await gateway.stop();
    }
  } finally {
    await fake.close();
    removeHome(home);
  }
}

/**
 * First, lowest, highest and last RSS, plus one sample every 5 s for the table.
 * @param {{ atS: number, rssMiB: number }[]} samples
 */
export function summarizeRss(samples) {
  const values = samples.map((sample) => sample.rssMiB);
  /** @type {Map<number, number>} the first sample at or after each 5-second mark */
  const byMark = new Map();
  for (const sample of samples) {
    const mark = Math.floor(sample.atS / 5) * 5;
    if (!byMark.has(mark)) byMark.set(mark, sample.rssMiB);
  }
  return {
    firstMiB: values[0],
    minMiB: Math.min(...values),
    maxMiB: Math.max(...values),
    lastMiB: values[values.length - 1],
    every5s: [...byMark.entries()].map(([atS, rssMiB]) => ({ atS, rssMiB })),
  };
}
