import { describe, expect, it } from 'vitest';
import { attemptDelivery } from './attempt.js';
import { parseConfig } from './config/load.js';
import type { LineComment } from './delivery.js';
import { createHooks, type DeliverRequest } from './hooks.js';
import { MemoryStore } from './memory-store.js';
import { acceptOne, attemptDeps } from './test-support/attempt-deps.js';

const COMMENTS: LineComment[] = [
  { path: 'src/a.ts', line: 12, body: 'off by one' },
  { path: 'README.md', line: 3, body: 'typo' },
];

/** A gateway's attempt with a runner that leaves line comments and a target that records. */
function setup(options: { failFirstDelivery?: boolean } = {}) {
  const config = parseConfig({
    platforms: {
      webhook: {
        extra: {
          host: '127.0.0.1',
          routes: { reviews: { secret: 's', deliver: 'sink' } },
        },
      },
    },
  });
  const hooks = createHooks();
  let runs = 0;
  hooks.run.for('dry-run').tapPromise('test', async () => {
    runs++;
    return { answer: 'Two remarks.', lineComments: COMMENTS };
  });
  const delivered: DeliverRequest[] = [];
  hooks.deliver.for('sink').tapPromise('test', async (request) => {
    delivered.push(request);
    if (options.failFirstDelivery && delivered.length === 1) throw new Error('sink answered 502');
  });
  const store = new MemoryStore();
  const deps = attemptDeps(store, hooks, config, () => 0);
  const accept = () => acceptOne(store, 'reviews');
  return { store, deps, delivered, accept, runs: () => runs };
}

describe('an attempt with line comments', () => {
  it('journals them next to the answer and hands the target the summary, the comments and both as text', async () => {
    const { store, deps, delivered, accept } = setup();
    const id = await accept();
    const outcome = await attemptDelivery(deps, id, new AbortController().signal);
    expect(outcome.status).toBe('delivered');
    expect(await store.get(id)).toMatchObject({ answer: 'Two remarks.', lineComments: COMMENTS });
    expect(delivered[0]).toMatchObject({
      summary: 'Two remarks.',
      lineComments: COMMENTS,
      answer: 'Two remarks.\n\nsrc/a.ts:12 — off by one\nREADME.md:3 — typo',
    });
  });

  it('delivers the journaled comments again on a retry, without running the agent again', async () => {
    const { deps, delivered, accept, runs } = setup({ failFirstDelivery: true });
    const id = await accept();
    const signal = new AbortController().signal;
    expect((await attemptDelivery(deps, id, signal)).status).toBe('retry');
    expect((await attemptDelivery(deps, id, signal)).status).toBe('delivered');
    expect(runs()).toBe(1);
    expect(delivered[1]?.lineComments).toEqual(COMMENTS);
    expect(delivered[1]?.answer).toBe(delivered[0]?.answer);
  });
});
