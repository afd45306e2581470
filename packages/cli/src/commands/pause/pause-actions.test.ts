import { parseConfig } from '@webhook-gateway/core';
import { MemoryStore } from '@webhook-gateway/core/runtime';
import { sampleSubscription } from '@webhook-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../deliveries/options.js';
import { knownRoutes, pauseRoute, resumeRoute } from './pause-actions.js';
import { pausedHeader, pauseText, resumeText } from './pause-text.js';

const config = parseConfig({
  platforms: { webhook: { extra: { secret: 's', routes: { reviews: {}, pushes: {} } } } },
});

describe('pauseRoute', () => {
  it('knows the routes of the config and the subscriptions', async () => {
    const store = new MemoryStore();
    await store.putSubscription(sampleSubscription({ name: 'linear' }));
    expect(await knownRoutes(config, store)).toEqual(['reviews', 'pushes', 'linear']);
  });

  it('refuses a route nobody knows, naming the ones there are', async () => {
    const store = new MemoryStore();
    const pausing = pauseRoute(store, {
      route: 'reveiws',
      reason: null,
      known: ['reviews'],
      now: 1,
    });
    await expect(pausing).rejects.toThrow(OptionsError);
    await expect(pausing).rejects.toThrow(
      '--route reveiws: no route of that name (routes: reviews)',
    );
    expect(await store.pauses()).toEqual([]);
  });

  it('pauses a known route, and says a second pause changed nothing', async () => {
    const store = new MemoryStore();
    const first = await pauseRoute(store, {
      route: 'reviews',
      reason: 'outage',
      known: ['reviews'],
      now: 0,
    });
    expect(pauseText(first)).toBe(
      'paused: route reviews since 1970-01-01T00:00:00.000Z — outage\n' +
        'deliveries are still accepted and journaled; none starts until resume, running attempts finish',
    );
    const second = await pauseRoute(store, {
      route: 'reviews',
      reason: 'other',
      known: ['reviews'],
      now: 5,
    });
    expect(pauseText(second)).toBe(
      'already paused: route reviews since 1970-01-01T00:00:00.000Z — outage; nothing changed',
    );
  });
});

describe('resumeRoute', () => {
  it('says a resume of what is not paused changes nothing', async () => {
    const store = new MemoryStore();
    expect(resumeText(await resumeRoute(store, 'reviews'), 'reviews')).toBe(
      'route reviews is not paused; nothing to resume',
    );
    expect(resumeText(await resumeRoute(store, null), null)).toBe(
      'nothing is paused; nothing to resume',
    );
  });

  it('lifts one route, and says when the pause of every route still holds it', async () => {
    const store = new MemoryStore();
    await store.pause('reviews', null, 0);
    await store.pause(null, 'deploy', 1000);
    expect(pausedHeader(await store.pauses())).toEqual([
      'paused: route reviews since 1970-01-01T00:00:00.000Z',
      'paused: every route since 1970-01-01T00:00:01.000Z — deploy',
    ]);
    expect(resumeText(await resumeRoute(store, 'reviews'), 'reviews')).toBe(
      'resumed: route reviews (paused since 1970-01-01T00:00:00.000Z)\n' +
        'route reviews still waits: every route since 1970-01-01T00:00:01.000Z — deploy (resume without --route lifts it)',
    );
  });

  it('lifts every pause without a route', async () => {
    const store = new MemoryStore();
    await store.pause('reviews', null, 0);
    await store.pause(null, null, 1000);
    const result = await resumeRoute(store, null);
    expect(result.lifted.map((pause) => pause.route)).toEqual(['reviews', null]);
    expect(await store.pauses()).toEqual([]);
  });
});
