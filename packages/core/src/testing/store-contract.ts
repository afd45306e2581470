/**
 * The behaviour every `Store` shares, as a list of checks a store's own tests register: no test
 * framework at run time (assertions are `node:assert/strict`), so any runner can take them.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeliveryFilter, Store } from '../index.js';
import {
  acceptedRecord,
  assertFields,
  check,
  DAY_MS,
  HOUR_MS,
  SHORT_WINDOW_MS,
  type StoreContractCheck,
} from './contract-check.js';
import { outboxChecks } from './outbox-contract.js';
import { pauseChecks } from './pause-contract.js';
import { sampleSubscription } from './store-samples.js';

export type { StoreContractCheck, StoreContractSubject } from './contract-check.js';

async function listIds(store: Store, filter: DeliveryFilter): Promise<string[]> {
  return (await store.list(filter)).map((row) => row.id);
}

const acceptChecks = [
  check('accept journals a new delivery as queued and returns the committed row', async (c) => {
    const delivery = c.delivery();
    const record = acceptedRecord(await c.store.accept(delivery, HOUR_MS));
    assertFields(record, {
      ...delivery,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: delivery.receivedAt,
      prompt: null,
      answer: null,
      lastError: null,
      startedAt: null,
      finishedAt: null,
      attemptLog: [],
      agent: null,
    });
    assert.deepStrictEqual(await c.store.get(record.id), record);
  }),

  check('accept keeps a null action and order key as null', async (c) => {
    const record = await c.acceptNew({ action: null, orderKey: null });
    assertFields(await c.store.get(record.id), { action: null, orderKey: null });
  }),

  check(
    'accept answers duplicate for the same route and delivery id within the window',
    async (c) => {
      const first = c.delivery();
      await c.store.accept(first, HOUR_MS);
      const again = await c.store.accept({ ...first, receivedAt: c.t0 + HOUR_MS - 1 }, HOUR_MS);
      assert.deepStrictEqual(again, { accepted: false, reason: 'duplicate' });
      assert.equal((await c.store.list({})).length, 1);
    },
  ),

  check(
    'accept lets exactly one of many concurrent accepts of one delivery id through',
    async (c) => {
      const delivery = c.delivery();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => c.store.accept({ ...delivery }, HOUR_MS)),
      );
      assert.equal(results.filter((result) => result.accepted).length, 1);
      assert.equal((await c.store.list({})).length, 1);
    },
  ),

  check(
    'accept de-duplicates per route: the same delivery id on another route is accepted',
    async (c) => {
      await c.acceptNew({ route: 'reviews', deliveryId: 'd-1' });
      const other = await c.store.accept(
        c.delivery({ route: 'triage', deliveryId: 'd-1' }),
        HOUR_MS,
      );
      assert.equal(other.accepted, true);
    },
  ),

  check('accept accepts the same delivery id again once the window has passed', async (c) => {
    await c.store.accept(c.delivery({ deliveryId: 'd-1' }), SHORT_WINDOW_MS);
    // Waited out as well as passed in `receivedAt`: a store may expire keys on the real clock.
    await sleep(2 * SHORT_WINDOW_MS);
    const later = c.delivery({ deliveryId: 'd-1', receivedAt: c.t0 + SHORT_WINDOW_MS });
    assert.equal((await c.store.accept(later, SHORT_WINDOW_MS)).accepted, true);
  }),

  check('accept accepts a redelivery of a delivery that failed for good', async (c) => {
    const record = await c.acceptNew({ deliveryId: 'd-1' });
    await c.store.markRunning(record.id, c.t0 + 1);
    await c.store.markFailed(record.id, 'target answered 500', c.t0 + 2);
    const redelivery = await c.store.accept(
      c.delivery({ deliveryId: 'd-1', receivedAt: c.t0 + 3 }),
      HOUR_MS,
    );
    assert.equal(redelivery.accepted, true);
  }),

  check('accept keeps a delivered delivery a duplicate within the window', async (c) => {
    const record = await c.acceptNew({ deliveryId: 'd-1' });
    await c.store.markRunning(record.id, c.t0 + 1);
    await c.store.markDelivered(record.id, c.t0 + 2);
    const redelivery = await c.store.accept(
      c.delivery({ deliveryId: 'd-1', receivedAt: c.t0 + 3 }),
      HOUR_MS,
    );
    assert.deepStrictEqual(redelivery, { accepted: false, reason: 'duplicate' });
  }),

  check('accept does not release a newer row’s key when an old row fails', async (c) => {
    const old = await c.acceptNew({ deliveryId: 'd-1' });
    await c.store.markFailed(old.id, 'boom', c.t0 + 1);
    await c.acceptNew({ deliveryId: 'd-1', receivedAt: c.t0 + 2 });
    // The old row failing again (a late worker) leaves the new row's key alone.
    await c.store.replay(old.id, c.t0 + 3);
    await c.store.markFailed(old.id, 'boom again', c.t0 + 4);
    const again = c.delivery({ deliveryId: 'd-1', receivedAt: c.t0 + 5 });
    assert.equal((await c.store.accept(again, HOUR_MS)).accepted, false);
  }),

  check('accept hands out increasing seq numbers in order of arrival', async (c) => {
    const seqs: number[] = [];
    for (let i = 0; i < 5; i++) seqs.push((await c.acceptNew()).seq);
    assert.deepStrictEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
    );
    assert.equal(new Set(seqs).size, 5);
  }),

  check(
    'accept rejects a payload with no JSON form, naming the delivery, and still accepts the rest',
    async (c) => {
      const bad = c.store.accept(
        c.delivery({ deliveryId: 'd-bad', payload: { count: BigInt(1) } }),
        HOUR_MS,
      );
      // Accepted alongside, as a store that commits in batches would take it with the bad one.
      const good = c.store.accept(c.delivery({ deliveryId: 'd-good' }), HOUR_MS);
      await assert.rejects(bad, /payload of delivery d-bad on route reviews/);
      const goodRecord = acceptedRecord(await good);
      assert.deepStrictEqual(await listIds(c.store, {}), [goodRecord.id]);
      // The rejected delivery holds no key: sent again with a payload it is accepted.
      const fixed = await c.store.accept(c.delivery({ deliveryId: 'd-bad' }), HOUR_MS);
      assert.equal(fixed.accepted, true);
    },
  ),
];

const readChecks = [
  check(
    'JSON fields round-trip unicode and nested payloads, headers, answers and agent accounting exactly',
    async (c) => {
      const payload = {
        title: 'Füge Wiederholungen hinzu — 修复 🚀 "quoted" \\ back\nslash',
        nested: { deep: { list: [1, 2.5, -3, null, true, { k: 'v' }], empty: {} } },
        emptyList: [],
        zero: 0,
        big: 9_007_199_254_740_991,
        nothing: null,
      };
      const headers = { 'x-forge-event': 'pull_request', 'user-agent': 'Bot/1 ✓' };
      const record = await c.acceptNew({ payload, headers });
      const agent = {
        runner: 'openai',
        model: 'qwen2.5-coder',
        turns: 3,
        toolCalls: [{ tool: 'terminal', command: 'gh pr diff 7', exitCode: 0, durationMs: 120 }],
        usage: { promptTokens: 10, cachedPromptTokens: 4, completionTokens: 20, totalTokens: 30 },
        cost: { amount: 0.00033, currency: 'USD' },
      };
      await c.store.saveProgress(record.id, {
        prompt: 'Review «PR» #7',
        answer: 'LGTM 👍',
        agent,
      });
      const read = await c.store.get(record.id);
      assertFields(read, { payload, headers, prompt: 'Review «PR» #7', answer: 'LGTM 👍', agent });
      // An empty answer stays an empty string, not null.
      await c.store.saveProgress(record.id, { answer: '' });
      assert.equal((await c.store.get(record.id))?.answer, '');
    },
  ),

  check(
    "keeps an agent's line comments next to its answer, and none for a run that made none",
    async (c) => {
      const record = await c.acceptNew();
      const plain = await c.acceptNew();
      const lineComments = [
        { path: 'src/a.ts', line: 12, body: 'off by one — «n + 1»' },
        { path: 'docs/ü.md', line: 1, body: 'a typo\non two lines' },
      ];
      await c.store.saveProgress(record.id, { answer: 'Two remarks.', lineComments });
      await c.store.saveProgress(plain.id, { answer: 'Nothing to add.' });
      assertFields(await c.store.get(record.id), { answer: 'Two remarks.', lineComments });
      // Saving other progress later leaves them as they were.
      await c.store.saveProgress(record.id, { prompt: 'Review' });
      assertFields(await c.store.get(record.id), { lineComments });
      assert.equal((await c.store.get(plain.id))?.lineComments, undefined);
      const listed = await c.store.list({});
      assert.deepStrictEqual(
        listed.find((row) => row.id === record.id)?.lineComments,
        lineComments,
      );
    },
  ),

  check("keeps the agent's conclusion next to its answer, until a replay", async (c) => {
    const record = await c.acceptNew();
    const plain = await c.acceptNew();
    const conclusion = { value: 'failure' as const, reason: 'a leaked key in «config.ts»' };
    await c.store.saveProgress(record.id, { answer: 'One problem.', conclusion });
    await c.store.saveProgress(plain.id, { answer: 'Fine.' });
    assertFields(await c.store.get(record.id), { answer: 'One problem.', conclusion });
    await c.store.saveProgress(record.id, { prompt: 'Review' });
    assertFields(await c.store.get(record.id), { conclusion });
    assert.equal((await c.store.get(plain.id))?.conclusion, undefined);
    await c.store.markFailed(record.id, 'boom', c.t0 + 2);
    const replayed = await c.store.replay(record.id, c.t0 + 100);
    assert.equal(replayed?.conclusion, undefined);
    assert.equal((await c.store.get(record.id))?.conclusion, undefined);
  }),

  check(
    'keeps a partial answer marked partial through delivery, and a complete one unmarked',
    async (c) => {
      const record = await c.acceptNew();
      const complete = await c.acceptNew();
      await c.store.markRunning(record.id, c.t0 + 1);
      await c.store.saveProgress(record.id, { answer: 'Stopped early.', partial: true });
      await c.store.saveProgress(complete.id, { answer: 'All of it.' });
      // Saving other progress later leaves the mark as it was.
      await c.store.saveProgress(record.id, { prompt: 'Review' });
      await c.store.markDelivered(record.id, c.t0 + 2, 'delivered');
      assertFields(await c.store.get(record.id), {
        status: 'delivered',
        answer: 'Stopped early.',
        partial: true,
      });
      assert.equal((await c.store.get(complete.id))?.partial, undefined);
      const listed = await c.store.list({});
      assert.equal(listed.find((row) => row.id === record.id)?.partial, true);
      assert.equal(listed.find((row) => row.id === complete.id)?.partial, undefined);
    },
  ),

  check(
    'keeps what the gateway took out of a delivery (safety), replaced whole, and clears it on replay',
    async (c) => {
      const record = await c.acceptNew();
      const plain = await c.acceptNew();
      const hidden = [
        { field: 'pull_request.body', removed: { 'HTML comment': 1, 'bidi control': 3 } },
      ];
      await c.store.saveProgress(record.id, { safety: { hidden } });
      await c.store.saveProgress(record.id, { answer: 'ok', safety: { hidden, redactions: 2 } });
      await c.store.saveProgress(record.id, { prompt: 'Review' });
      assertFields(await c.store.get(record.id), { safety: { hidden, redactions: 2 } });
      assert.equal((await c.store.get(plain.id))?.safety, undefined);
      const listed = await c.store.list({});
      assert.deepStrictEqual(listed.find((row) => row.id === record.id)?.safety, {
        hidden,
        redactions: 2,
      });
    },
  ),

  check(
    'keeps the auth scheme that verified a delivery, and none for an unverified one',
    async (c) => {
      const verified = await c.acceptNew({ authScheme: 'standard-webhooks' });
      const unverified = await c.acceptNew();
      assert.equal((await c.store.get(verified.id))?.authScheme, 'standard-webhooks');
      assert.equal((await c.store.get(unverified.id))?.authScheme, undefined);
    },
  ),

  check(
    "keeps the request's trace context through an attempt, and none when tracing was off",
    async (c) => {
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const traced = await c.acceptNew({ traceContext: traceparent });
      const untraced = await c.acceptNew();
      assert.equal((await c.store.markRunning(traced.id, Date.now()))?.traceContext, traceparent);
      assert.equal((await c.store.get(untraced.id))?.traceContext, undefined);
    },
  ),

  check(
    'queued returns queued rows after the cursor, in order of arrival, at most limit',
    async (c) => {
      const first = await c.acceptNew();
      const second = await c.acceptNew();
      const third = await c.acceptNew();
      const fourth = await c.acceptNew();
      const fifth = await c.acceptNew();
      await c.store.markRunning(third.id, c.t0 + 1);

      const afterFirst = await c.store.queued(first.seq, 10);
      assert.deepStrictEqual(
        afterFirst.map((row) => row.id),
        [second.id, fourth.id, fifth.id],
      );
      const limited = await c.store.queued(0, 2);
      assert.deepStrictEqual(
        limited.map((row) => row.id),
        [first.id, second.id],
      );
      // A retry's row says so (`attempts`): the queue standings tell its backoff by it.
      await c.store.markRunning(first.id, c.t0 + 2);
      await c.store.markRetry(first.id, 'boom', c.t0 + 3, c.t0 + 60_000);
      const [retried] = await c.store.queued(0, 1);
      assert.equal(retried?.id, first.id);
      assert.equal(retried?.attempts, 1);
      assert.equal(retried?.nextAttemptAt, c.t0 + 60_000);
    },
  ),

  check(
    'get finds a row by journal id or by the sender delivery id (the newest row)',
    async (c) => {
      const failed = await c.acceptNew({ deliveryId: 'd-1' });
      await c.store.markFailed(failed.id, 'boom', c.t0 + 1);
      const redelivered = await c.acceptNew({ deliveryId: 'd-1', receivedAt: c.t0 + 2 });

      assert.equal((await c.store.get(failed.id))?.status, 'failed');
      assert.equal((await c.store.get('d-1'))?.id, redelivered.id);
      assert.equal(await c.store.get('no-such-id'), undefined);
    },
  ),

  check('list lists newest first, 50 by default', async (c) => {
    for (let i = 0; i < 60; i++) await c.acceptNew();
    const rows = await c.store.list({});
    assert.equal(rows.length, 50);
    const seqs = rows.map((row) => row.seq);
    assert.deepStrictEqual(
      seqs,
      [...seqs].sort((a, b) => b - a),
    );
    assert.equal(seqs[0], 60);
  }),

  check('list filters by route, by status, by both, and honours limit', async (c) => {
    const a1 = await c.acceptNew({ route: 'a' });
    const a2 = await c.acceptNew({ route: 'a' });
    const b1 = await c.acceptNew({ route: 'b' });
    await c.store.markRunning(a1.id, c.t0 + 1);
    await c.store.markDelivered(a1.id, c.t0 + 2);

    assert.deepStrictEqual(await listIds(c.store, { route: 'a' }), [a2.id, a1.id]);
    assert.deepStrictEqual(await listIds(c.store, { status: 'queued' }), [b1.id, a2.id]);
    assert.deepStrictEqual(await listIds(c.store, { route: 'a', status: 'delivered' }), [a1.id]);
    assert.deepStrictEqual(await listIds(c.store, { route: 'a', status: 'queued' }), [a2.id]);
    assert.deepStrictEqual(await listIds(c.store, { limit: 1 }), [b1.id]);
  }),

  check(
    'outlines gives rows received since a time, newest first, without their payloads',
    async (c) => {
      const old = await c.acceptNew({ route: 'a', receivedAt: c.t0 - 10 });
      const ran = await c.acceptNew({ route: 'a', receivedAt: c.t0 });
      const refused = await c.acceptNew({ route: 'b', receivedAt: c.t0 + 5 });
      const queued = await c.acceptNew({ route: 'b', receivedAt: c.t0 + 6 });
      const agent = {
        runner: 'openai',
        usage: { promptTokens: 90, completionTokens: 10, totalTokens: 100 },
      };
      await c.store.markRunning(ran.id, c.t0 + 1);
      await c.store.saveProgress(ran.id, { agent });
      await c.store.markDelivered(ran.id, c.t0 + 3);
      await c.store.markRunning(refused.id, c.t0 + 6);
      await c.store.markRefused(refused.id, 'denied', 'permission', c.t0 + 7);

      const outlines = await c.store.outlines(c.t0, 10);
      assert.deepStrictEqual(outlines, [
        {
          id: queued.id,
          route: 'b',
          status: 'queued',
          receivedAt: c.t0 + 6,
          attemptLog: [],
          agent: null,
        },
        {
          id: refused.id,
          route: 'b',
          status: 'denied',
          receivedAt: c.t0 + 5,
          attemptLog: [
            { attempt: 1, startedAt: c.t0 + 6, finishedAt: c.t0 + 7, error: 'permission' },
          ],
          agent: null,
        },
        {
          id: ran.id,
          route: 'a',
          status: 'delivered',
          receivedAt: c.t0,
          attemptLog: [{ attempt: 1, startedAt: c.t0 + 1, finishedAt: c.t0 + 3, error: null }],
          agent,
        },
      ]);
      assert.ok(!outlines.some((outline) => outline.id === old.id));
      assert.deepStrictEqual(
        (await c.store.outlines(c.t0, 2)).map((outline) => outline.id),
        [queued.id, refused.id],
      );
      assert.deepStrictEqual(await c.store.outlines(c.t0, 0), []);
    },
  ),
];

const attemptChecks = [
  check(
    'markRunning counts the attempt, keeps the first start time and logs the attempt',
    async (c) => {
      const record = await c.acceptNew();
      const first = await c.store.markRunning(record.id, c.t0 + 10);
      assertFields(first, { status: 'running', attempts: 1, startedAt: c.t0 + 10 });
      await c.store.markRetry(record.id, 'agent timed out', c.t0 + 20, c.t0 + 1000);
      const second = await c.store.markRunning(record.id, c.t0 + 1000);
      assertFields(second, { status: 'running', attempts: 2, startedAt: c.t0 + 10 });
      assert.deepStrictEqual(second?.attemptLog, [
        { attempt: 1, startedAt: c.t0 + 10, finishedAt: c.t0 + 20, error: 'agent timed out' },
        { attempt: 2, startedAt: c.t0 + 1000, finishedAt: null, error: null },
      ]);
      // A journal row and nothing else (no bookkeeping of the store's own).
      assert.deepStrictEqual(Object.keys(second).sort(), Object.keys(record).sort());
    },
  ),

  check('markRunning answers undefined for an unknown id', async (c) => {
    assert.equal(await c.store.markRunning('no-such-id', c.t0), undefined);
  }),

  check('markRunning counts every one of many concurrent calls', async (c) => {
    const record = await c.acceptNew();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => c.store.markRunning(record.id, c.t0 + i)),
    );
    const read = await c.store.get(record.id);
    assert.equal(read?.attempts, 10);
    assert.equal(read?.attemptLog.length, 10);
  }),

  check(
    'saveProgress keeps what it is given and leaves the rest, and never makes a row of an unknown id',
    async (c) => {
      const record = await c.acceptNew();
      await c.store.saveProgress(record.id, { prompt: 'Review PR #7' });
      await c.store.saveProgress(record.id, { answer: 'Looks good' });
      assertFields(await c.store.get(record.id), {
        prompt: 'Review PR #7',
        answer: 'Looks good',
        agent: null,
      });
      await c.store.saveProgress('gone', { answer: 'x' });
      assert.equal(await c.store.get('gone'), undefined);
    },
  ),

  check('markRetry queues the delivery again for later with the error', async (c) => {
    const record = await c.acceptNew();
    await c.store.markRunning(record.id, c.t0 + 1);
    await c.store.markRetry(record.id, 'target answered 502', c.t0 + 2, c.t0 + 5000);
    assertFields(await c.store.get(record.id), {
      status: 'queued',
      attempts: 1,
      lastError: 'target answered 502',
      nextAttemptAt: c.t0 + 5000,
      finishedAt: null,
    });
    assert.deepStrictEqual(await listIds(c.store, { status: 'running' }), []);
    assert.deepStrictEqual(await listIds(c.store, { status: 'queued' }), [record.id]);
  }),

  check(
    'markDelivered finishes the delivery and closes the attempt without an error',
    async (c) => {
      const record = await c.acceptNew();
      await c.store.markRunning(record.id, c.t0 + 1);
      await c.store.markDelivered(record.id, c.t0 + 2);
      const read = await c.store.get(record.id);
      assertFields(read, { status: 'delivered', finishedAt: c.t0 + 2 });
      assert.deepStrictEqual(read?.attemptLog, [
        { attempt: 1, startedAt: c.t0 + 1, finishedAt: c.t0 + 2, error: null },
      ]);
    },
  ),

  check('markFailed records the final failure and its error', async (c) => {
    const record = await c.acceptNew();
    await c.store.markRunning(record.id, c.t0 + 1);
    await c.store.markFailed(record.id, 'gh: not authenticated', c.t0 + 2);
    const read = await c.store.get(record.id);
    assertFields(read, {
      status: 'failed',
      lastError: 'gh: not authenticated',
      finishedAt: c.t0 + 2,
    });
    assert.equal(read?.attemptLog.at(-1)?.error, 'gh: not authenticated');
  }),

  check(
    'markRefused ends a delivery as denied or over_budget, keeps its key, and lists by status',
    async (c) => {
      const denied = await c.acceptNew({ deliveryId: 'refused-1' });
      const overBudget = await c.acceptNew({ deliveryId: 'refused-2' });
      for (const [record, status] of [
        [denied, 'denied'],
        [overBudget, 'over_budget'],
      ] as const) {
        await c.store.markRunning(record.id, c.t0 + 1);
        await c.store.markRefused(record.id, status, `${status}: no`, c.t0 + 2);
        const read = await c.store.get(record.id);
        assertFields(read, { status, lastError: `${status}: no`, finishedAt: c.t0 + 2 });
        assert.equal(read?.attemptLog.at(-1)?.error, `${status}: no`);
      }
      const listed = await c.store.list({ status: 'denied' });
      assert.deepStrictEqual(
        listed.map((record) => record.id),
        [denied.id],
      );
      // The same event sent again is a duplicate: it would be refused again.
      const again = await c.store.accept(c.delivery({ deliveryId: 'refused-1' }), HOUR_MS);
      assert.deepStrictEqual(again, { accepted: false, reason: 'duplicate' });
      const replayed = await c.store.replay(overBudget.id, c.t0 + 10);
      assertFields(replayed, { status: 'queued', attempts: 0, lastError: null });
    },
  ),
];

const replayChecks = [
  check(
    'replay queues any row again with a fresh set of attempts and a new, higher seq',
    async (c) => {
      const record = await c.acceptNew();
      const later = await c.acceptNew();
      await c.store.markRunning(record.id, c.t0 + 1);
      await c.store.saveProgress(record.id, {
        prompt: 'Review',
        answer: 'old answer',
        lineComments: [{ path: 'src/a.ts', line: 3, body: 'old remark' }],
        partial: true,
        safety: { redactions: 1 },
      });
      await c.store.markFailed(record.id, 'boom', c.t0 + 2);

      const replayed = await c.store.replay(record.id, c.t0 + 100);
      // The agent runs again: its old line comments, and the partial mark, go with its old answer.
      assert.equal(replayed?.lineComments, undefined);
      assert.equal(replayed?.safety, undefined);
      assert.equal((await c.store.get(record.id))?.lineComments, undefined);
      assert.equal(replayed?.partial, undefined);
      assert.equal((await c.store.get(record.id))?.partial, undefined);
      assertFields(replayed, {
        id: record.id,
        status: 'queued',
        attempts: 0,
        prompt: 'Review',
        answer: null,
        lastError: null,
        finishedAt: null,
        nextAttemptAt: c.t0 + 100,
      });
      assert.ok((replayed?.seq ?? 0) > later.seq, 'the replayed row has a seq after every other');
      // A gateway whose poll cursor is past every earlier row still sees it.
      const seen = await c.store.queued(later.seq, 10);
      assert.deepStrictEqual(
        seen.map((row) => row.id),
        [record.id],
      );
    },
  ),

  check('replay finds a row by the sender delivery id, the newest row with it', async (c) => {
    const failed = await c.acceptNew({ deliveryId: 'd-1' });
    await c.store.markFailed(failed.id, 'boom', c.t0 + 1);
    const redelivered = await c.acceptNew({ deliveryId: 'd-1', receivedAt: c.t0 + 2 });
    await c.store.markDelivered(redelivered.id, c.t0 + 3);
    assert.equal((await c.store.replay('d-1', c.t0 + 4))?.id, redelivered.id);
  }),

  check('replay answers undefined for an unknown id', async (c) => {
    assert.equal(await c.store.replay('no-such-id', c.t0), undefined);
  }),
];

const upkeepChecks = [
  // What recover does with a running row differs by store (SQLite requeues it, Redis leaves it to
  // BullMQ); each store's own tests say which.
  check(
    'recover leaves queued and finished rows as they are, and a second call finds nothing',
    async (c) => {
      const queued = await c.acceptNew();
      const delivered = await c.acceptNew();
      const failed = await c.acceptNew();
      await c.store.markRunning(delivered.id, c.t0 + 1);
      await c.store.markDelivered(delivered.id, c.t0 + 2);
      await c.store.markRunning(failed.id, c.t0 + 1);
      await c.store.markFailed(failed.id, 'boom', c.t0 + 2);

      await c.store.recover();
      assert.equal((await c.store.get(queued.id))?.status, 'queued');
      assert.equal((await c.store.get(delivered.id))?.status, 'delivered');
      assert.equal((await c.store.get(failed.id))?.status, 'failed');
      assert.equal(await c.store.recover(), 0);
    },
  ),

  check(
    'prune drops finished rows older than the retention with their index entries, keeps the rest',
    async (c) => {
      const old = { receivedAt: c.t0 };
      const oldDelivered = acceptedRecord(
        await c.store.accept(c.delivery({ ...old, deliveryId: 'old-delivered' }), SHORT_WINDOW_MS),
      );
      const oldFailed = acceptedRecord(
        await c.store.accept(c.delivery({ ...old, deliveryId: 'old-failed' }), SHORT_WINDOW_MS),
      );
      const oldQueued = acceptedRecord(
        await c.store.accept(c.delivery({ ...old, deliveryId: 'old-queued' }), SHORT_WINDOW_MS),
      );
      // The old keys expire: by their receivedAt, and on the real clock for a store that uses it.
      await sleep(2 * SHORT_WINDOW_MS);
      const recent = await c.acceptNew({ deliveryId: 'recent', receivedAt: c.t0 + 8 * DAY_MS });
      await c.store.markDelivered(oldDelivered.id, c.t0 + 1);
      await c.store.markRunning(oldFailed.id, c.t0 + 1);
      await c.store.markRetry(oldFailed.id, 'boom', c.t0 + 2, c.t0 + 3);
      await c.store.markFailed(oldFailed.id, 'boom', c.t0 + 4);
      await c.store.markDelivered(recent.id, c.t0 + 8 * DAY_MS + 1);

      const now = c.t0 + 8 * DAY_MS + 10;
      // Expired and still held: old-delivered's and old-queued's (old-failed's went at its failure).
      const expiredKeys = c.prunesExpiredKeys ? 2 : 0;
      assert.deepStrictEqual(await c.store.prune(now - 7 * DAY_MS, now), {
        deliveries: 2,
        keys: expiredKeys,
      });
      assert.equal(await c.store.get(oldDelivered.id), undefined);
      assert.equal(await c.store.get(oldFailed.id), undefined);
      assert.notEqual(await c.store.get(oldQueued.id), undefined);
      assert.notEqual(await c.store.get(recent.id), undefined);
      assert.deepStrictEqual(await listIds(c.store, {}), [recent.id, oldQueued.id]);
      assert.deepStrictEqual(await listIds(c.store, { status: 'failed' }), []);
      assert.equal(await c.store.get('old-delivered'), undefined);
      assert.deepStrictEqual(await c.store.prune(now - 7 * DAY_MS, now), {
        deliveries: 0,
        keys: 0,
      });
      // The recent key is still live; the pruned one is free again.
      const recentAgain = c.delivery({ deliveryId: 'recent', receivedAt: now });
      assert.equal((await c.store.accept(recentAgain, HOUR_MS)).accepted, false);
      const oldAgain = c.delivery({ deliveryId: 'old-delivered', receivedAt: now });
      assert.equal((await c.store.accept(oldAgain, HOUR_MS)).accepted, true);
    },
  ),

  check('subscriptions are stored, listed by name, updated and removed', async (c) => {
    const subscription = sampleSubscription({ createdAt: c.t0, updatedAt: c.t0 });
    await c.store.putSubscription(subscription);
    await c.store.putSubscription({
      ...subscription,
      name: 'alpha',
      description: null,
      prompt: null,
      deliverChatId: null,
      events: [],
      skills: [],
    });
    assert.deepStrictEqual(await c.store.getSubscription('nightly'), subscription);
    assert.deepStrictEqual(
      (await c.store.listSubscriptions()).map((s) => s.name),
      ['alpha', 'nightly'],
    );

    const updated = { ...subscription, prompt: 'Summarize', updatedAt: c.t0 + 1 };
    await c.store.putSubscription(updated);
    assert.deepStrictEqual(await c.store.getSubscription('nightly'), updated);

    assert.equal(await c.store.removeSubscription('nightly'), true);
    assert.equal(await c.store.removeSubscription('nightly'), false);
    assert.equal(await c.store.getSubscription('nightly'), undefined);
    assert.equal((await c.store.listSubscriptions()).length, 1);
  }),

  check(
    'journaledDeliveryIds answers which sender ids the route journaled, whatever their status',
    async (c) => {
      const queued = await c.acceptNew({ deliveryId: 'guid-queued' });
      const failed = await c.acceptNew({ deliveryId: 'guid-failed' });
      await c.store.markFailed(failed.id, 'boom', c.t0 + 1);
      await c.acceptNew({ deliveryId: 'guid-other-route', route: 'other' });
      const found = await c.store.journaledDeliveryIds('reviews', [
        'guid-queued',
        'guid-failed',
        'guid-other-route',
        'guid-never-seen',
      ]);
      assert.deepStrictEqual([...found].sort(), ['guid-failed', 'guid-queued']);
      assert.equal(queued.deliveryId, 'guid-queued');
      assert.deepStrictEqual([...(await c.store.journaledDeliveryIds('reviews', []))], []);
      assert.deepStrictEqual(
        [...(await c.store.journaledDeliveryIds('other', ['guid-other-route']))],
        ['guid-other-route'],
      );
    },
  ),

  check('cursors are kept by name, replaced on write, and absent until written', async (c) => {
    assert.equal(await c.store.readCursor('forge:octo/repo:hook:1'), undefined);
    await c.store.writeCursor('forge:octo/repo:hook:1', '{"newest":1}');
    await c.store.writeCursor('forge:octo/repo:hook:2', 'two');
    await c.store.writeCursor('forge:octo/repo:hook:1', '{"newest":2}');
    assert.equal(await c.store.readCursor('forge:octo/repo:hook:1'), '{"newest":2}');
    assert.equal(await c.store.readCursor('forge:octo/repo:hook:2'), 'two');
  }),

  check(
    'findings are kept per order key, replaced as a whole on save, and empty until saved',
    async (c) => {
      const key = 'review|octo/repo|7';
      assert.deepEqual(await c.store.findings(key), []);
      const finding = {
        fingerprint: 'a1b2c3',
        path: 'src/a.ts',
        line: 3,
        body: 'c is unused',
        lineText: 'const c = 3;',
        state: 'open' as const,
        raisedBy: 'd-1',
      };
      await c.store.saveFindings(key, [finding, { ...finding, fingerprint: 'd4e5f6', line: 9 }]);
      await c.store.saveFindings('review|octo/repo|8', [{ ...finding, fingerprint: 'ffff' }]);
      const closed = { ...finding, state: 'dismissed' as const, closedBy: 'd-2' };
      await c.store.saveFindings(key, [closed]);
      assert.deepEqual(await c.store.findings(key), [closed]);
      assert.deepEqual(
        (await c.store.findings('review|octo/repo|8')).map((f) => f.fingerprint),
        ['ffff'],
      );
    },
  ),

  check('close makes later calls reject, saying the store is closed', async (c) => {
    await c.store.close();
    await assert.rejects(c.store.accept(c.delivery(), HOUR_MS), /is closed/);
    await assert.rejects(c.store.list({}), /is closed/);
    // Closing again is harmless: the caller closes every store it opened.
    await c.store.close();
  }),
];

/** `supersede` on accept, and the last delivered row of a pull request. */
const supersedeChecks: StoreContractCheck[] = [
  check(
    'a superseding accept ends the queued, never-started rows of its order key, naming itself',
    async (c) => {
      const first = await c.acceptNew();
      const second = await c.acceptNew();
      const otherRequest = await c.acceptNew({ orderKey: 'reviews|octo/repo|8' });
      const started = await c.acceptNew();
      await c.store.markRunning(started.id, c.t0 + 1);
      const retried = await c.acceptNew();
      await c.store.markRunning(retried.id, c.t0 + 1);
      await c.store.markRetry(retried.id, 'boom', c.t0 + 2, c.t0 + 100);

      const result = await c.store.accept(c.delivery({ supersede: true }), HOUR_MS);
      const newest = acceptedRecord(result);
      assert.ok(result.accepted);
      assert.deepStrictEqual([...(result.superseded ?? [])].sort(), [first.id, second.id].sort());
      for (const id of [first.id, second.id]) {
        assertFields(await c.store.get(id), {
          status: 'superseded',
          supersededBy: newest.id,
          attempts: 0,
        });
      }
      // Another request, a running attempt and a retry that already ran keep their turn.
      assertFields(await c.store.get(otherRequest.id), { status: 'queued' });
      assertFields(await c.store.get(started.id), { status: 'running' });
      assertFields(await c.store.get(retried.id), { status: 'queued' });
      assertFields(await c.store.get(newest.id), { status: 'queued' });
      const superseded = await c.store.list({ status: 'superseded' });
      assert.deepStrictEqual(superseded.map((r) => r.id).sort(), [first.id, second.id].sort());
      assert.deepStrictEqual(
        (await c.store.queued(0, 10)).map((q) => q.id),
        [otherRequest.id, retried.id, newest.id],
      );
    },
  ),

  check('a superseded row never runs, and a replay queues it again', async (c) => {
    const first = await c.acceptNew();
    await c.acceptNew({ supersede: true });
    assert.equal(await c.store.markRunning(first.id, c.t0 + 1), undefined);
    assertFields(await c.store.get(first.id), { status: 'superseded', attempts: 0 });
    const replayed = await c.store.replay(first.id, c.t0 + 2);
    assertFields(replayed, { status: 'queued' });
    assert.equal(replayed?.supersededBy, undefined);
    assertFields(await c.store.markRunning(first.id, c.t0 + 3), { status: 'running' });
  }),

  check('an accept without supersede, or without an order key, supersedes nothing', async (c) => {
    const first = await c.acceptNew();
    const plain = await c.store.accept(c.delivery(), HOUR_MS);
    assert.ok(plain.accepted);
    assert.equal(plain.superseded, undefined);
    const keyless = await c.store.accept(c.delivery({ orderKey: null, supersede: true }), HOUR_MS);
    assert.ok(keyless.accepted);
    assert.equal(keyless.superseded, undefined);
    assertFields(await c.store.get(first.id), { status: 'queued' });
  }),

  check(
    'lastDelivered is the newest delivered row of the order key, other than the one asked for',
    async (c) => {
      const key = 'reviews|octo/repo|7';
      assert.equal(await c.store.lastDelivered(key, 'none'), undefined);
      const older = await c.acceptNew();
      const newer = await c.acceptNew();
      const failed = await c.acceptNew();
      const other = await c.acceptNew({ orderKey: 'reviews|octo/repo|8' });
      for (const row of [older, newer, failed, other]) await c.store.markRunning(row.id, c.t0 + 1);
      await c.store.markDelivered(newer.id, c.t0 + 2);
      await c.store.markDelivered(older.id, c.t0 + 3);
      await c.store.markDelivered(other.id, c.t0 + 3);
      await c.store.markFailed(failed.id, 'boom', c.t0 + 4);
      assert.equal((await c.store.lastDelivered(key, 'none'))?.id, newer.id);
      assert.equal((await c.store.lastDelivered(key, newer.id))?.id, older.id);
      // A replayed row is no longer delivered.
      await c.store.replay(newer.id, c.t0 + 5);
      assert.equal((await c.store.lastDelivered(key, 'none'))?.id, older.id);
      assert.deepStrictEqual((await c.store.lastDelivered(key, 'none'))?.payload, older.payload);
    },
  ),
];

/**
 * Every check of the `Store` contract, to run against a store in its package's tests.
 *
 * @example
 * describe('the Store contract', () => {
 *   for (const check of storeContract) it(check.name, () => check.run({ open: () => new MemoryStore() }));
 * });
 */
export const storeContract: readonly StoreContractCheck[] = [
  ...acceptChecks,
  ...readChecks,
  ...attemptChecks,
  ...replayChecks,
  ...upkeepChecks,
  ...supersedeChecks,
  ...outboxChecks,
  ...pauseChecks,
];
