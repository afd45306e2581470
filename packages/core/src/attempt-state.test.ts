import { describe, expect, it } from 'vitest';
import { attemptDelivery } from './attempt.js';
import { parseConfig } from './config/load.js';
import {
  createHooks,
  type DeliverRequest,
  type DeliveryEndedRequest,
  type DeliveryStateRequest,
  type RunResult,
} from './hooks.js';
import { endInterruptedStates, INTERRUPTED_ERROR } from './interrupted-attempts.js';
import { liveConfig } from './config/live.js';
import { silentLogger } from './logger.js';
import { MemoryStore } from './memory-store.js';
import { createRouteResolver } from './routes.js';
import { sampleDelivery } from './testing/store-samples.js';
import { attemptDeps } from './test-support/attempt-deps.js';

/** A route delivering to `sink`, its runner answering with `run`, every state hook recorded. */
function setup(
  run: () => RunResult,
  options: {
    deliverExtra?: Record<string, unknown>;
    sinkFails?: boolean;
    maxAttempts?: number;
  } = {},
) {
  const config = parseConfig({
    platforms: {
      webhook: {
        extra: {
          host: '127.0.0.1',
          routes: {
            reviews: {
              secret: 's',
              deliver: 'sink',
              prompt: 'Review {number}',
              deliver_extra: options.deliverExtra ?? {},
            },
          },
        },
      },
    },
  });
  const hooks = createHooks();
  hooks.run.for('dry-run').tapPromise('test', async () => run());
  const delivered: DeliverRequest[] = [];
  hooks.deliver.for('sink').tapPromise('test', async (request) => {
    if (options.sinkFails) throw Object.assign(new Error('sink is down'), { retryable: false });
    delivered.push(request);
  });
  const started: DeliveryStateRequest[] = [];
  const ended: DeliveryEndedRequest[] = [];
  hooks.attemptStarted.tapPromise('test', async (request) => {
    started.push(request);
  });
  hooks.deliveryEnded.tapPromise('test', async (request) => {
    ended.push(request);
  });
  const store = new MemoryStore();
  const deps = attemptDeps(store, hooks, config);
  return { store, deps, hooks, config, delivered, started, ended };
}

async function accept(store: MemoryStore, maxAttempts = 3): Promise<string> {
  const result = await store.accept(sampleDelivery({ maxAttempts }), 3_600_000);
  if (!result.accepted) throw new Error('not accepted');
  return result.record.id;
}

const signal = new AbortController().signal;

describe("an attempt's conclusion and state", () => {
  it("carries the runner's conclusion to the target and keeps it in the journal", async () => {
    const { store, deps, delivered, started, ended } = setup(() => ({
      answer: 'One leak.',
      conclusion: { value: 'failure', reason: 'a key is committed' },
    }));
    const id = await accept(store);
    const result = await attemptDelivery(deps, id, signal);
    expect(result.status).toBe('delivered');
    expect(delivered[0]?.conclusion).toEqual({ value: 'failure', reason: 'a key is committed' });
    expect((await store.get(id))?.conclusion).toEqual({
      value: 'failure',
      reason: 'a key is committed',
    });
    expect(started).toHaveLength(1);
    expect(ended).toHaveLength(0);
  });

  it('concludes neutral when the runner gives no conclusion', async () => {
    const { store, deps, delivered } = setup(() => ({ answer: 'Fine.' }));
    await attemptDelivery(deps, await accept(store), signal);
    expect(delivered[0]?.conclusion).toEqual({ value: 'neutral' });
  });

  it('ends the state as failed, with the error, when the delivery fails for good', async () => {
    const { store, deps, ended } = setup(() => ({ answer: 'Fine.' }), { sinkFails: true });
    const result = await attemptDelivery(deps, await accept(store), signal);
    expect(result.status).toBe('failed');
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ status: 'failed', error: 'sink is down' });
  });

  it('ends the state of a silent answer with its conclusion', async () => {
    const { store, deps, ended, delivered } = setup(() => ({
      answer: '[SILENT]',
      conclusion: { value: 'success' },
    }));
    const result = await attemptDelivery(deps, await accept(store), signal);
    expect(result.status).toBe('silent');
    expect(delivered).toHaveLength(0);
    expect(ended[0]).toMatchObject({ status: 'silent', conclusion: { value: 'success' } });
  });

  it('adds the run details to the answer with deliver_extra.details', async () => {
    const { store, deps, delivered } = setup(
      () => ({
        answer: 'Fine.',
        accounting: {
          runner: 'dry-run',
          model: 'model-x',
          usage: {
            promptTokens: 12_000,
            cachedPromptTokens: 8_000,
            completionTokens: 300,
            totalTokens: 12_300,
          },
          cost: { amount: 0.0123, currency: 'USD' },
        },
      }),
      { deliverExtra: { details: true } },
    );
    const id = await accept(store);
    await attemptDelivery(deps, id, signal);
    const summary = delivered[0]?.summary ?? '';
    expect(summary).toMatch(/^Fine\.\n\n<details><summary>Run details<\/summary>/);
    expect(summary).toContain('| Model | model-x |');
    expect(summary).toContain('| Tokens | 12,000 prompt (8,000 cached), 300 completion |');
    expect(summary).toContain('| Cost | 0.0123 USD |');
    expect(summary).toContain('| Time |');
    const deliveryId = (await store.get(id))?.deliveryId ?? '';
    expect(summary).toContain(`| Delivery | \`${deliveryId}\` |`);
    // Kept in the answer: a retried delivery posts the same details.
    expect((await store.get(id))?.answer).toBe(summary);
  });

  it('ends, at start-up, the state of every delivery whose attempt died with the gateway', async () => {
    const { store, hooks, config, ended } = setup(() => ({ answer: 'Fine.' }));
    const dead = await accept(store);
    const queued = await accept(store);
    await store.markRunning(dead, Date.now());
    const live = liveConfig(config);
    await endInterruptedStates({
      store,
      hooks,
      config: live,
      resolveRoute: createRouteResolver(live, store),
      log: silentLogger(),
    });
    expect(ended.map((request) => request.delivery.id)).toEqual([dead]);
    expect(ended[0]).toMatchObject({ status: 'failed', error: INTERRUPTED_ERROR });
    expect(queued).not.toBe(dead);
  });
});
