/**
 * Every span that never reaches the collector is counted, whatever lost it: a full queue (the
 * SDK drops those silently), an export that failed or one past its timeout. Real OTLP/HTTP exports
 * to a loopback collector that answers slowly or never: the spans it received plus the spans
 * counted as dropped are the spans made, and ending spans never waits on the collector.
 */
import { warningCollector } from '@webhook-gateway/core/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { createOtlpTracer, type TracerLimits } from './otlp-tracer.js';
import { startFakeCollector, type FakeCollector } from './test-support/fake-collector.js';

let collector: FakeCollector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds, then a little longer so a late extra count would show. */
async function settle(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await sleep(25);
  await sleep(300);
}

function tracerFor(endpoint: string, limits: TracerLimits) {
  const logged = warningCollector();
  const tracer = createOtlpTracer(
    { endpoint, headers: {}, sample_ratio: 1 },
    { log: logged.log, limits },
  );
  let dropped = 0;
  tracer.onDropped((spans) => (dropped += spans));
  return { tracer, warnings: () => logged.warnings(), dropped: () => dropped };
}

/** Ends `count` spans named `span-<from + i>`; returns how long ending them took. */
function endSpans(tracer: ReturnType<typeof createOtlpTracer>, from: number, count: number) {
  const started = performance.now();
  for (let i = from; i < from + count; i++) tracer.startSpan(`span-${i}`).end();
  return performance.now() - started;
}

describe('spans dropped on the way to the collector', () => {
  it('counts the queue-full drops at once and the timed-out exports after, all of them', async () => {
    collector = await startFakeCollector({ answerAfterMs: 'never' });
    const limits = { maxQueueSize: 40, maxExportBatchSize: 10, exportTimeoutMillis: 2000 };
    const { tracer, warnings, dropped } = tracerFor(collector.endpoint, limits);
    const made = 400;

    const endingMs = endSpans(tracer, 0, made);
    // No export has timed out yet: every drop counted so far is a full queue's.
    const droppedQueueFull = dropped();
    expect(droppedQueueFull).toBeGreaterThanOrEqual(made - 40 - 10);
    expect(droppedQueueFull).toBeLessThan(made);
    // Waiting on the collector would take its whole timeout.
    expect(endingMs).toBeLessThan(limits.exportTimeoutMillis);

    // The queued spans go out at the stop and time out too.
    await tracer.shutdown().catch(() => undefined);
    await settle(() => dropped() >= made, 10_000);
    expect(collector.exports()).toBeGreaterThan(0);
    expect(collector.spans()).toEqual([]);
    expect(dropped()).toBe(made);
    expect(warnings().map((w) => w.message)).toContainEqual(
      expect.stringContaining('trace queue is full'),
    );
  });

  it('counts what a slow collector could not take: received + dropped = made', async () => {
    collector = await startFakeCollector({ answerAfterMs: 100 });
    const limits = { maxQueueSize: 40, maxExportBatchSize: 10, scheduledDelayMillis: 10 };
    const { tracer, dropped } = tracerFor(collector.endpoint, limits);
    const bursts = 10;
    const perBurst = 100;
    for (let burst = 0; burst < bursts; burst++) {
      // Waiting on the collector would take 100 ms for each of the burst's 10 batches.
      expect(endSpans(tracer, burst * perBurst, perBurst)).toBeLessThan(1000);
      await sleep(30);
    }
    await tracer.shutdown();
    const made = bursts * perBurst;
    await settle(() => collector!.spans().length + dropped() >= made, 10_000);

    const received = collector.spans().map((span) => span.name);
    expect(new Set(received).size).toBe(received.length);
    for (const name of received) expect(name).toMatch(/^span-\d+$/);
    expect(received.length).toBeGreaterThan(0);
    expect(dropped()).toBeGreaterThan(0);
    expect(received.length + dropped()).toBe(made);
  });
});
