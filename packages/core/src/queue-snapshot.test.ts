import { describe, expect, it } from 'vitest';
import { parseConfig } from './config/load.js';
import { MemoryStore } from './memory-store.js';
import { readQueueStandings } from './queue-snapshot.js';
import { sampleDelivery } from './testing/store-samples.js';

const config = parseConfig({
  platforms: { webhook: { extra: { routes: { reviews: {}, other: {} } } } },
});

async function accept(store: MemoryStore, route: string, deliveryId: string): Promise<void> {
  const result = await store.accept(
    sampleDelivery({ route, deliveryId, orderKey: `${route}|octo/repo|1` }),
    3_600_000,
  );
  if (!result.accepted) throw new Error('not accepted');
}

describe('readQueueStandings', () => {
  it('says a delivery of a paused route waits for the operator, with the pause’s reason', async () => {
    const store = new MemoryStore();
    await accept(store, 'reviews', 'd-reviews');
    await accept(store, 'other', 'd-other');
    await store.pause('reviews', 'deploy freeze', Date.now());

    const { standings } = await readQueueStandings(store, config, Date.now());
    const reasons = new Map([...standings.values()].map((s) => [s.route, s.reasons]));
    expect(reasons.get('reviews')?.[0]).toEqual({ kind: 'paused', reason: 'deploy freeze' });
    expect(reasons.get('other')?.some((reason) => reason.kind === 'paused')).toBe(false);
  });
});
