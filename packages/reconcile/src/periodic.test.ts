import { silentLogger } from '@webhook-gateway/core';
import { MemoryStore } from '@webhook-gateway/core/runtime';
import { waitFor } from '@webhook-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { periodicReconcile, RECONCILE_LEASE, type PeriodicReconcile } from './periodic.js';
import type { PassResult } from './reconcile-pass.js';

const EMPTY_PASS: PassResult = { startedAt: 0, finishedAt: 1, routes: [] };

let periodic: PeriodicReconcile | undefined;
afterEach(async () => {
  await periodic?.stop();
  periodic = undefined;
});

/** A memory store that says whether this process holds the lease, as a shared store would. */
function storeHoldingLease(held: boolean): MemoryStore & { asked: string[] } {
  const store = new MemoryStore() as MemoryStore & {
    asked: string[];
    tryLease(name: string, ttlMs: number): Promise<boolean>;
  };
  store.asked = [];
  store.tryLease = async (name) => {
    store.asked.push(name);
    return held;
  };
  return store;
}

describe('periodicReconcile', () => {
  it('runs a pass at start and reports it', async () => {
    const passes: PassResult[] = [];
    periodic = periodicReconcile({
      intervalMs: 3_600_000,
      store: new MemoryStore(),
      log: silentLogger(),
      runPass: async () => EMPTY_PASS,
      onPass: (result) => void passes.push(result),
    });
    periodic.start();
    await waitFor(() => passes.length === 1, 'the first pass', {
      describe: () => `${passes.length} passes`,
    });
  });

  it('leaves the pass to the gateway that holds the lease of a shared store', async () => {
    const store = storeHoldingLease(false);
    let ran = 0;
    periodic = periodicReconcile({
      intervalMs: 3_600_000,
      store,
      log: silentLogger(),
      runPass: async () => {
        ran++;
        return EMPTY_PASS;
      },
      onPass: () => undefined,
    });
    periodic.start();
    await waitFor(() => store.asked.length === 1, 'the lease to be asked for', {
      describe: () => `asked ${JSON.stringify(store.asked)}`,
    });
    await periodic.stop();
    expect(store.asked).toEqual([RECONCILE_LEASE]);
    expect(ran).toBe(0);
  });

  it('brings the next pass forward to the Retry-After of a rate-limited one', async () => {
    let ran = 0;
    periodic = periodicReconcile({
      intervalMs: 3_600_000,
      store: storeHoldingLease(true),
      log: silentLogger(),
      runPass: async () => {
        ran++;
        return ran === 1 ? { ...EMPTY_PASS, retryAfterMs: 1_000 } : EMPTY_PASS;
      },
      onPass: () => undefined,
    });
    periodic.start();
    await waitFor(() => ran === 2, 'the early second pass', {
      describe: () => `${ran} passes`,
    });
  });

  it('keeps going after a pass that threw', async () => {
    let ran = 0;
    const store = new MemoryStore();
    periodic = periodicReconcile({
      intervalMs: 1_000,
      store,
      log: silentLogger(),
      runPass: async () => {
        ran++;
        if (ran === 1) throw new Error('the store went away');
        return EMPTY_PASS;
      },
      onPass: () => undefined,
    });
    periodic.start();
    await waitFor(() => ran >= 2, 'a pass after the failed one', {
      describe: () => `${ran} passes`,
    });
  });
});
