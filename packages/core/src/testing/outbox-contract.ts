/**
 * The outbox part of the `Store` contract: status changes write their lifecycle events in the
 * same change, and senders claim, lease and settle messages (part of `storeContract`).
 */
import assert from 'node:assert/strict';
import type { NewOutboxMessage, OutboundPlan, OutboxMessage, Store } from '../index.js';
import { LIFECYCLE_EVENTS } from '../lifecycle-events.js';
import { lifecycleBody } from '../lifecycle-messages.js';
import { OUTBOX_TTL_MS } from '../outbox.js';
import { acceptedRecord, assertFields, check, HOUR_MS } from './contract-check.js';

const LEASE_MS = 60_000;

/** Two subscribers: one hears everything with answers, one only `delivered`. */
const PLAN: OutboundPlan = {
  subscriptions: [
    { destination: 'outbound:all', events: [...LIFECYCLE_EVENTS], includeAnswer: true },
    { destination: 'outbound:delivered', events: ['delivered'], includeAnswer: false },
  ],
};

interface Body {
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { journal_id: string; event: string };
}

async function claimAll(store: Store, now: number): Promise<OutboxMessage[]> {
  return (await store.claimOutbox(now, LEASE_MS, 1000)).messages;
}

function bodyOf(message: OutboxMessage): Body {
  return JSON.parse(message.body) as Body;
}

/** The events each journal row sent to `destination`, in the order they were written. */
function eventsByRow(messages: readonly OutboxMessage[], destination: string) {
  const byRow = new Map<string, string[]>();
  const sorted = [...messages].sort((a, b) => a.createdAt - b.createdAt);
  for (const message of sorted.filter((m) => m.destination === destination)) {
    const body = bodyOf(message);
    byRow.set(body.data.journal_id, [...(byRow.get(body.data.journal_id) ?? []), body.data.event]);
  }
  return byRow;
}

function find(messages: readonly OutboxMessage[], destination: string, row: string, event: string) {
  const found = messages.find((message) => {
    const body = bodyOf(message);
    return (
      message.destination === destination &&
      body.data.journal_id === row &&
      body.data.event === event
    );
  });
  assert.ok(found, `no ${event} message of row ${row} for ${destination}`);
  return found;
}

function message(id: string, createdAt: number, expiresAt = createdAt + HOUR_MS): NewOutboxMessage {
  return { id, destination: 'endpoint:answers', body: `{"n":"${id}"}`, createdAt, expiresAt };
}

export const outboxChecks = [
  check(
    'each status change writes the events its plan asks for, about the row as the change left it',
    async (c) => {
      const usage = { promptTokens: 1200, completionTokens: 340, totalTokens: 1540 };
      const answer = `${'é'.repeat(999)}🚀 and more`;
      const ran = acceptedRecord(await c.store.accept(c.delivery(), HOUR_MS, PLAN));
      await c.store.markRunning(ran.id, c.t0 + 1);
      await c.store.markRetry(ran.id, 'the target answered 502', c.t0 + 2, c.t0 + 50, PLAN);
      await c.store.markRunning(ran.id, c.t0 + 60);
      await c.store.saveProgress(ran.id, { answer, agent: { runner: 'openai', usage } });
      await c.store.markDelivered(ran.id, c.t0 + 70, 'delivered', PLAN);

      const denied = acceptedRecord(await c.store.accept(c.delivery(), HOUR_MS, PLAN));
      await c.store.markRunning(denied.id, c.t0 + 3);
      await c.store.markRefused(denied.id, 'denied', 'needs write', c.t0 + 4, PLAN);
      const dead = acceptedRecord(await c.store.accept(c.delivery(), HOUR_MS, PLAN));
      await c.store.markRunning(dead.id, c.t0 + 5);
      await c.store.markFailed(dead.id, 'no such target', c.t0 + 6, PLAN);
      const silent = acceptedRecord(await c.store.accept(c.delivery(), HOUR_MS, PLAN));
      await c.store.markRunning(silent.id, c.t0 + 7);
      await c.store.markDelivered(silent.id, c.t0 + 8, 'silent', PLAN);
      // No plan: nothing written, whatever happens to the row.
      const unheard = await c.acceptNew();
      await c.store.markRunning(unheard.id, c.t0 + 9);
      await c.store.markDelivered(unheard.id, c.t0 + 10);

      const messages = await claimAll(c.store, c.t0 + 100);
      assert.deepStrictEqual(
        eventsByRow(messages, 'outbound:all'),
        new Map([
          [ran.id, ['accepted', 'failed', 'delivered']],
          [denied.id, ['accepted', 'denied']],
          [dead.id, ['accepted', 'dead']],
          [silent.id, ['accepted', 'silent']],
        ]),
      );
      assert.deepStrictEqual(
        eventsByRow(messages, 'outbound:delivered'),
        new Map([[ran.id, ['delivered']]]),
      );
      assert.equal(new Set(messages.map((m) => m.id)).size, messages.length);
      for (const m of messages) {
        assertFields(m, { expiresAt: m.createdAt + OUTBOX_TTL_MS, attempts: 0, lastError: null });
      }

      const failed = find(messages, 'outbound:all', ran.id, 'failed');
      assert.equal(failed.createdAt, c.t0 + 2);
      assert.deepStrictEqual(bodyOf(failed), {
        type: 'delivery.failed',
        timestamp: new Date(c.t0 + 2).toISOString(),
        data: {
          event: 'failed',
          route: 'reviews',
          journal_id: ran.id,
          delivery_id: ran.deliveryId,
          sender_event: 'pull_request',
          action: 'opened',
          status: 'queued',
          attempt: 1,
          max_attempts: 5,
          timings: {
            received_at: c.t0,
            started_at: c.t0 + 1,
            finished_at: null,
            retry_at: c.t0 + 50,
          },
          tokens: null,
          cost: null,
          reason: 'the target answered 502',
          superseded_by: null,
        },
      });
      const delivered = bodyOf(find(messages, 'outbound:all', ran.id, 'delivered'));
      assert.deepStrictEqual(delivered.data, {
        event: 'delivered',
        route: 'reviews',
        journal_id: ran.id,
        delivery_id: ran.deliveryId,
        sender_event: 'pull_request',
        action: 'opened',
        status: 'delivered',
        attempt: 2,
        max_attempts: 5,
        timings: {
          received_at: c.t0,
          started_at: c.t0 + 1,
          finished_at: c.t0 + 70,
          retry_at: null,
        },
        tokens: { prompt: 1200, completion: 340, total: 1540 },
        cost: null,
        reason: null,
        superseded_by: null,
        // The first 1,000 characters, the emoji whole.
        answer: `${'é'.repeat(999)}🚀`,
      });
      const withoutAnswer = bodyOf(find(messages, 'outbound:delivered', ran.id, 'delivered'));
      assert.equal('answer' in withoutAnswer.data, false);
      assert.deepStrictEqual(
        bodyOf(find(messages, 'outbound:all', ran.id, 'accepted')).data.timings,
        { received_at: c.t0, started_at: null, finished_at: null, retry_at: null },
      );
      assertFields(bodyOf(find(messages, 'outbound:all', denied.id, 'denied')).data, {
        status: 'denied',
        reason: 'needs write',
      });
      assertFields(bodyOf(find(messages, 'outbound:all', dead.id, 'dead')).data, {
        status: 'failed',
        reason: 'no such target',
        attempt: 1,
      });
      assertFields(bodyOf(find(messages, 'outbound:all', silent.id, 'silent')).data, {
        status: 'silent',
        reason: null,
      });
    },
  ),

  check(
    'a superseding accept writes superseded for each row it ended, as lifecycleBody makes it',
    async (c) => {
      const first = acceptedRecord(await c.store.accept(c.delivery(), HOUR_MS, PLAN));
      const second = acceptedRecord(
        await c.store.accept(c.delivery({ action: null, receivedAt: c.t0 + 1 }), HOUR_MS, PLAN),
      );
      const at = c.t0 + 2;
      const newest = acceptedRecord(
        await c.store.accept(c.delivery({ supersede: true, receivedAt: at }), HOUR_MS, PLAN),
      );
      const messages = await claimAll(c.store, c.t0 + 10);
      for (const row of [first, second]) {
        const ended = await c.store.get(row.id);
        assert.ok(ended);
        const sent = find(messages, 'outbound:all', row.id, 'superseded');
        assert.equal(sent.createdAt, at);
        assert.equal(sent.expiresAt, at + OUTBOX_TTL_MS);
        assert.deepStrictEqual(bodyOf(sent), lifecycleBody('superseded', ended, at, true));
        assertFields(bodyOf(sent).data, { superseded_by: newest.id, status: 'superseded' });
      }
      assert.deepStrictEqual(eventsByRow(messages, 'outbound:all').get(newest.id), ['accepted']);
      // A duplicate writes nothing.
      const again = await c.store.accept(
        c.delivery({ deliveryId: newest.deliveryId }),
        HOUR_MS,
        PLAN,
      );
      assert.equal(again.accepted, false);
      assert.deepStrictEqual(
        (await claimAll(c.store, c.t0 + LEASE_MS + 20)).length,
        messages.length,
      );
    },
  ),

  check(
    'an outbox message keeps the trace context of its delivery, and has none when it was not traced',
    async (c) => {
      const ranTrace = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const waitingTrace = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const newestTrace = '00-5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b-1a2b3c4d5e6f7a8b-00';
      const ran = acceptedRecord(
        await c.store.accept(c.delivery({ traceContext: ranTrace }), HOUR_MS, PLAN),
      );
      await c.store.markRunning(ran.id, c.t0 + 1);
      await c.store.markDelivered(ran.id, c.t0 + 2, 'delivered', PLAN);
      const untraced = acceptedRecord(await c.store.accept(c.delivery(), HOUR_MS, PLAN));
      await c.store.markRunning(untraced.id, c.t0 + 3);
      await c.store.markFailed(untraced.id, 'no such target', c.t0 + 4, PLAN);
      // A superseded row's event carries that row's trace, not the superseding one's.
      const waiting = acceptedRecord(
        await c.store.accept(c.delivery({ traceContext: waitingTrace }), HOUR_MS, PLAN),
      );
      const newest = acceptedRecord(
        await c.store.accept(
          c.delivery({ supersede: true, traceContext: newestTrace, receivedAt: c.t0 + 5 }),
          HOUR_MS,
          PLAN,
        ),
      );
      await c.store.enqueueOutbox([
        { ...message('answer-traced', c.t0 + 6), traceContext: ranTrace },
        message('answer-untraced', c.t0 + 6),
      ]);

      const messages = await claimAll(c.store, c.t0 + 100);
      const traceOf = (row: string, event: string) =>
        find(messages, 'outbound:all', row, event).traceContext;
      assert.equal(traceOf(ran.id, 'accepted'), ranTrace);
      assert.equal(traceOf(ran.id, 'delivered'), ranTrace);
      assert.equal(
        find(messages, 'outbound:delivered', ran.id, 'delivered').traceContext,
        ranTrace,
      );
      assert.equal(traceOf(untraced.id, 'accepted'), undefined);
      assert.equal(traceOf(untraced.id, 'dead'), undefined);
      assert.equal('traceContext' in find(messages, 'outbound:all', untraced.id, 'dead'), false);
      assert.equal(traceOf(waiting.id, 'superseded'), waitingTrace);
      assert.equal(traceOf(newest.id, 'accepted'), newestTrace);
      const answers = new Map(messages.map((m) => [m.id, m]));
      assert.equal(answers.get('answer-traced')?.traceContext, ranTrace);
      assert.equal(answers.get('answer-untraced')?.traceContext, undefined);
      assert.equal('traceContext' in (answers.get('answer-untraced') ?? {}), false);
    },
  ),

  check(
    'claimOutbox leases due messages: no other claim takes them until the lease ends',
    async (c) => {
      await c.store.enqueueOutbox([message('m-1', c.t0), message('m-2', c.t0 + 5)]);
      const first = await c.store.claimOutbox(c.t0, 1000, 10);
      assert.deepStrictEqual(
        first.messages.map((m) => m.id),
        ['m-1'],
      );
      assertFields(first.messages[0], {
        destination: 'endpoint:answers',
        body: '{"n":"m-1"}',
        createdAt: c.t0,
        expiresAt: c.t0 + HOUR_MS,
        attempts: 0,
        lastError: null,
      });
      assert.deepStrictEqual((await c.store.claimOutbox(c.t0 + 1, 1000, 10)).messages, []);
      assert.deepStrictEqual(
        (await c.store.claimOutbox(c.t0 + 6, 1000, 10)).messages.map((m) => m.id),
        ['m-2'],
      );
      const again = await c.store.claimOutbox(c.t0 + 1000, 1000, 10);
      assert.deepStrictEqual(
        again.messages.map((m) => m.id),
        ['m-1'],
      );
      assert.notEqual(again.messages[0]?.claim, first.messages[0]?.claim);
    },
  ),

  check('concurrent claims never hold the same message', async (c) => {
    const ids = Array.from({ length: 30 }, (_, i) => `m-${i}`);
    await c.store.enqueueOutbox(ids.map((id) => message(id, c.t0)));
    const claims = await Promise.all(
      Array.from({ length: 4 }, () => c.store.claimOutbox(c.t0 + 1, LEASE_MS, 10)),
    );
    const held = claims.flatMap((claim) => claim.messages.map((m) => m.id));
    assert.equal(new Set(held).size, held.length);
    assert.deepStrictEqual([...held].sort(), [...ids].sort());
  }),

  check(
    'settleOutbox removes a sent message, reschedules a retry (counted) or a deferral (not), and ignores a stale claim',
    async (c) => {
      await c.store.enqueueOutbox([message('m-1', c.t0)]);
      const [claimed] = (await c.store.claimOutbox(c.t0, 10, 10)).messages;
      assert.ok(claimed);
      assert.equal(
        await c.store.settleOutbox({ id: 'm-1', claim: 'not-the-claim' }, { kind: 'done' }),
        false,
      );
      assert.equal(
        await c.store.settleOutbox(claimed, { kind: 'retry', at: c.t0 + 500, error: '503' }),
        true,
      );
      assert.deepStrictEqual((await c.store.claimOutbox(c.t0 + 499, 10, 10)).messages, []);
      const [retried] = (await c.store.claimOutbox(c.t0 + 500, 10, 10)).messages;
      assertFields(retried, { id: 'm-1', attempts: 1, lastError: '503' });
      assert.equal(await c.store.settleOutbox(retried, { kind: 'defer', at: c.t0 + 900 }), true);
      const [deferred] = (await c.store.claimOutbox(c.t0 + 900, 10, 10)).messages;
      assertFields(deferred, { id: 'm-1', attempts: 1, lastError: '503' });
      // The lease of `deferred` ends; another claim takes it, and the old claim settles nothing.
      const [taken] = (await c.store.claimOutbox(c.t0 + 910, 10, 10)).messages;
      assert.ok(taken && deferred);
      assert.equal(await c.store.settleOutbox(deferred, { kind: 'done' }), false);
      assert.equal(await c.store.settleOutbox(taken, { kind: 'done' }), true);
      assert.equal(await c.store.settleOutbox(taken, { kind: 'done' }), false);
      assert.deepStrictEqual((await c.store.claimOutbox(c.t0 + 5000, 10, 10)).messages, []);
    },
  ),

  check('a claim drops the messages expired by then, and counts them', async (c) => {
    await c.store.enqueueOutbox([
      message('old', c.t0, c.t0 + 100),
      message('young', c.t0, c.t0 + HOUR_MS),
    ]);
    const claim = await c.store.claimOutbox(c.t0 + 100, LEASE_MS, 10);
    assert.equal(claim.expired, 1);
    assert.deepStrictEqual(
      claim.messages.map((m) => m.id),
      ['young'],
    );
    assert.equal((await c.store.claimOutbox(c.t0 + 2 * LEASE_MS, LEASE_MS, 10)).expired, 0);
  }),

  check('enqueueOutbox keeps the first message of an id', async (c) => {
    await c.store.enqueueOutbox([message('m-1', c.t0)]);
    await c.store.enqueueOutbox([{ ...message('m-1', c.t0), body: '{"n":"again"}' }]);
    const { messages } = await c.store.claimOutbox(c.t0, LEASE_MS, 10);
    assert.deepStrictEqual(
      messages.map((m) => m.body),
      ['{"n":"m-1"}'],
    );
  }),
];
