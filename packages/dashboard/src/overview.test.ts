import { MemoryStore } from '@webhook-gateway/core/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { overviewOf } from './overview.js';
import { DAY_MS, HOUR_MS } from './overview-data.js';

const now = Date.UTC(2025, 0, 10, 12, 30);
let store: MemoryStore;

/** Journals `count` deliveries of route `reviews`, `stepMs` apart, the newest at `newest`. */
async function journal(count: number, newest: number, stepMs: number): Promise<void> {
  for (let index = count - 1; index >= 0; index--) {
    const receivedAt = newest - index * stepMs;
    const accepted = await store.accept(
      {
        route: 'reviews',
        event: 'pull_request',
        action: 'opened',
        deliveryId: `delivery-${receivedAt}`,
        receivedAt,
        payload: {},
        headers: {},
        orderKey: null,
        maxAttempts: 1,
      },
      60_000,
    );
    if (!accepted.accepted) throw new Error('not accepted');
    await store.markRunning(accepted.record.id, receivedAt + 10);
    await store.saveProgress(accepted.record.id, {
      agent: {
        runner: 'openai',
        usage: { promptTokens: 90, completionTokens: 10, totalTokens: 100 },
      },
    });
    await store.markDelivered(accepted.record.id, receivedAt + 2010);
  }
}

afterEach(async () => {
  await store.close();
});

describe('overviewOf', () => {
  it('charts the rows of the window from one read of the journal', async () => {
    store = new MemoryStore();
    await journal(3, now, HOUR_MS);
    const overview = await overviewOf(store, {
      now,
      window: '24h',
      scanLimit: 100,
      ignoredByHour: new Map([[Date.UTC(2025, 0, 10, 12), 2]]),
    });
    expect(overview.hourly).toHaveLength(24);
    expect(overview.hourly.slice(-3).map((hour) => hour.counts.delivered)).toEqual([1, 1, 1]);
    expect(overview.hourly.at(-1)?.counts.ignored).toBe(2);
    expect(overview.agentTimes).toEqual([{ route: 'reviews', runs: 3, p50Ms: 2000, p95Ms: 2000 }]);
    expect(Object.fromEntries(overview.usage.tokens)).toEqual({
      reviews: [0, 0, 0, 0, 0, 0, 300],
    });
    expect(overview.coveredSince).toBeUndefined();
  });

  it('says from when the charts are complete when the scan limit cut the window short', async () => {
    store = new MemoryStore();
    // One a day for 7 days; a limit of 5 reads the newest 5 only.
    await journal(7, now, DAY_MS);
    const overview = await overviewOf(store, {
      now,
      window: '7d',
      scanLimit: 5,
      ignoredByHour: new Map(),
    });
    expect(overview.hourly).toHaveLength(168);
    expect(overview.coveredSince).toBe(now - 4 * DAY_MS);
    expect(overview.usage.tokens.get('reviews')).toEqual([0, 0, 100, 100, 100, 100, 100]);
  });
});
