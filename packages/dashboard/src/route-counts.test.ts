import { describe, expect, it } from 'vitest';
import { countByRoute, DAY_MS } from './route-counts.js';
import { deliveryRecord } from './test-support/records.js';

const now = Date.UTC(2025, 0, 10);

describe('countByRoute', () => {
  it('counts the window by route and status, and lists quiet routes with zeros', () => {
    const rows = [
      deliveryRecord({ route: 'reviews', status: 'delivered', receivedAt: now - 1000 }),
      deliveryRecord({ route: 'reviews', status: 'failed', receivedAt: now - 2000 }),
      deliveryRecord({ route: 'pushes', status: 'queued', receivedAt: now - 3000 }),
      deliveryRecord({ route: 'reviews', status: 'superseded', receivedAt: now - 4000 }),
      deliveryRecord({ route: 'reviews', status: 'delivered', receivedAt: now - DAY_MS - 1 }),
    ];
    const result = countByRoute(rows, {
      since: now - DAY_MS,
      routeNames: ['reviews', 'quiet'],
      scanLimit: 100,
    });
    expect(Object.fromEntries(result.byRoute)).toEqual({
      reviews: {
        received: 3,
        queued: 0,
        running: 0,
        delivered: 1,
        failed: 1,
        denied: 0,
        over_budget: 0,
        silent: 0,
        skipped: 0,
        superseded: 1,
      },
      quiet: {
        received: 0,
        queued: 0,
        running: 0,
        delivered: 0,
        failed: 0,
        denied: 0,
        over_budget: 0,
        silent: 0,
        skipped: 0,
        superseded: 0,
      },
      pushes: {
        received: 1,
        queued: 1,
        running: 0,
        delivered: 0,
        failed: 0,
        denied: 0,
        over_budget: 0,
        silent: 0,
        skipped: 0,
        superseded: 0,
      },
    });
    expect(result.complete).toBe(true);
  });

  it('says the counts are incomplete when the scan reached its limit', () => {
    const rows = [deliveryRecord({ receivedAt: now }), deliveryRecord({ receivedAt: now })];
    expect(countByRoute(rows, { since: 0, routeNames: [], scanLimit: 2 }).complete).toBe(false);
  });
});
