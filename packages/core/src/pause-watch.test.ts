import { describe, expect, it } from 'vitest';
import { silentLogger } from './logger.js';
import { MemoryStore } from './memory-store.js';
import { isPaused, PauseWatch } from './pause-watch.js';

describe('isPaused', () => {
  it('holds a route by its own pause or by one of every route', () => {
    const reviews = { route: 'reviews', reason: null, since: 1 };
    const all = { route: null, reason: null, since: 2 };
    expect(isPaused([reviews], 'reviews')).toBe(true);
    expect(isPaused([reviews], 'pushes')).toBe(false);
    expect(isPaused([all], 'pushes')).toBe(true);
    expect(isPaused([], 'reviews')).toBe(false);
  });
});

describe('PauseWatch', () => {
  it('sees a pause made through the store at its next read, and calls onResume when one is lifted', async () => {
    const store = new MemoryStore();
    let resumes = 0;
    const watch = new PauseWatch({ store, log: silentLogger(), onResume: () => resumes++ });
    await watch.start();
    try {
      expect(watch.isPaused('reviews')).toBe(false);
      await store.pause('reviews', 'outage', 1000);
      await watch.read();
      expect(watch.isPaused('reviews')).toBe(true);
      expect(watch.pauses).toEqual([{ route: 'reviews', reason: 'outage', since: 1000 }]);
      expect(resumes).toBe(0);
      await store.resume('reviews');
      await watch.read();
      expect(watch.isPaused('reviews')).toBe(false);
      expect(resumes).toBe(1);
    } finally {
      watch.stop();
    }
  });

  it('keeps the last pauses read while the store does not answer', async () => {
    const store = new MemoryStore();
    await store.pause(null, null, 1000);
    const watch = new PauseWatch({ store, log: silentLogger() });
    await watch.start();
    watch.stop();
    await store.close();
    await watch.read();
    expect(watch.isPaused('anything')).toBe(true);
  });
});
