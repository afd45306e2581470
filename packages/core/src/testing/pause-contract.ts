/**
 * The pause part of the `Store` contract: pauses of one route or of every route, kept until
 * lifted, a second pause of the same route leaving the first as it is (part of `storeContract`).
 */
import assert from 'node:assert/strict';
import { check, type StoreContractCheck } from './contract-check.js';

export const pauseChecks: StoreContractCheck[] = [
  check('no pause is in force until one is made', async (c) => {
    assert.deepStrictEqual(await c.store.pauses(), []);
  }),

  check(
    'pause keeps a route’s pause and one of every route, oldest first, with reason and time',
    async (c) => {
      const reviews = await c.store.pause('reviews', 'model provider outage', c.t0 + 1);
      assert.deepStrictEqual(reviews, {
        pause: { route: 'reviews', reason: 'model provider outage', since: c.t0 + 1 },
        added: true,
      });
      await c.store.pause(null, null, c.t0 + 2);
      assert.deepStrictEqual(await c.store.pauses(), [
        { route: 'reviews', reason: 'model provider outage', since: c.t0 + 1 },
        { route: null, reason: null, since: c.t0 + 2 },
      ]);
    },
  ),

  check('a second pause of a paused route leaves the first as it is', async (c) => {
    await c.store.pause('reviews', 'first', c.t0 + 1);
    const again = await c.store.pause('reviews', 'second', c.t0 + 5);
    assert.deepStrictEqual(again, {
      pause: { route: 'reviews', reason: 'first', since: c.t0 + 1 },
      added: false,
    });
    assert.deepStrictEqual(await c.store.pauses(), [
      { route: 'reviews', reason: 'first', since: c.t0 + 1 },
    ]);
  }),

  check('resume lifts only the pause it names, and says whether there was one', async (c) => {
    await c.store.pause('reviews', null, c.t0 + 1);
    await c.store.pause('pushes', null, c.t0 + 2);
    await c.store.pause(null, 'all', c.t0 + 3);
    assert.equal(await c.store.resume('reviews'), true);
    assert.equal(await c.store.resume('reviews'), false);
    assert.equal(await c.store.resume('never-paused'), false);
    assert.deepStrictEqual(
      (await c.store.pauses()).map((pause) => pause.route),
      ['pushes', null],
    );
    assert.equal(await c.store.resume(null), true);
    assert.deepStrictEqual(
      (await c.store.pauses()).map((pause) => pause.route),
      ['pushes'],
    );
  }),
];
