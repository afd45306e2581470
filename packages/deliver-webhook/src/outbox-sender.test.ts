/**
 * The outbox's sender against real receivers on 127.0.0.1 and a real SQLite journal file: what
 * arrives, signed how, and what is tried again when.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OUTBOX_TTL_MS, silentLogger, type NewOutboxMessage } from '@webhook-gateway/core';
import { recordingTracer } from '@webhook-gateway/core/testing';
import { openSqliteStore, type SqliteStore } from '@webhook-gateway/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { Destination } from './destinations.js';
import { webhookOptionsSchema } from './options.js';
import { OutboxSender, type OutboxSenderOptions } from './outbox-sender.js';
import { startReceiver, type TestReceiver } from './test-support/receiver.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function openStore(): SqliteStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-outbox-'));
  const store = openSqliteStore({ path: path.join(dir, 'state.db') });
  cleanups.push(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

async function receiver(...args: Parameters<typeof startReceiver>): Promise<TestReceiver> {
  const started = await startReceiver(...args);
  cleanups.push(() => started.close());
  return started;
}

/** A running sender, and each message's settlements as the store took them (`id settlement`). */
function sender(
  store: SqliteStore,
  destinations: Record<string, Destination>,
  options: Record<string, unknown> = {},
  more: Pick<OutboxSenderOptions, 'tracer'> = {},
): { sender: OutboxSender; settled: string[] } {
  const settled: string[] = [];
  const started = new OutboxSender({
    ...more,
    store,
    log: silentLogger(),
    destinations: () => new Map(Object.entries(destinations)),
    options: webhookOptionsSchema.parse({ poll_interval_ms: 50, retry_base_ms: 20, ...options }),
    random: () => 1,
    settled: (message, settlement) => settled.push(`${message.id} ${settlement}`),
  });
  started.start();
  cleanups.push(() => started.stop());
  return { sender: started, settled };
}

function message(id: string, destination: string, body: unknown = { type: 'test', data: { id } }) {
  const now = Date.now();
  return {
    id,
    destination,
    body: JSON.stringify(body),
    createdAt: now,
    expiresAt: now + OUTBOX_TTL_MS,
  } satisfies NewOutboxMessage;
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * What the outbox still holds, as a claim at `at` sees it. It takes what it finds: look once the
 * sender has stopped (its POSTs settled), or at messages it would not send before `at` anyway.
 */
async function waiting(store: SqliteStore, at = Date.now() + OUTBOX_TTL_MS / 2) {
  const { messages } = await store.claimOutbox(at, 1, 100);
  return messages;
}

describe('the outbox sender', () => {
  it('POSTs each message signed as the verifier checks it, once, and empties the outbox', async () => {
    const store = openStore();
    const ops = await receiver(SECRET);
    await store.enqueueOutbox([
      message('msg_1', 'outbound:ops', { type: 'delivery.accepted', data: { n: 1 } }),
      message('msg_2', 'outbound:ops', { type: 'delivery.delivered', data: { n: 2 } }),
    ]);
    const { settled } = sender(store, {
      'outbound:ops': { url: `${ops.origin}/hooks/gateway?team=a`, secret: SECRET },
    });
    await until(() => (settled.length === 2 ? true : undefined), 'two settlements');
    expect(settled.sort()).toEqual(['msg_1 sent', 'msg_2 sent']);
    expect(ops.received.map((r) => [r.id, r.verified, r.path, r.json.type]).sort()).toEqual([
      ['msg_1', true, '/hooks/gateway?team=a', 'delivery.accepted'],
      ['msg_2', true, '/hooks/gateway?team=a', 'delivery.delivered'],
    ]);
    expect(await waiting(store)).toEqual([]);
  });

  it('gives up on a 4xx other than 408 and 429; retries 408, 429 and 5xx until they pass', async () => {
    const store = openStore();
    const statuses: Record<string, number[]> = {
      '/400': [400],
      '/404': [404],
      '/408': [408, 200],
      '/429': [429, 200],
      '/500': [500, 503, 200],
    };
    const target = await receiver(SECRET, (request) => ({
      status: statuses[request.path]?.shift() ?? 200,
    }));
    const destinations = Object.fromEntries(
      Object.keys(statuses).map((p) => [
        `outbound:${p}`,
        { url: `${target.origin}${p}`, secret: SECRET },
      ]),
    );
    await store.enqueueOutbox(
      Object.keys(statuses).map((p) => message(`m${p.slice(1)}`, `outbound:${p}`)),
    );
    const { settled } = sender(store, destinations);
    const final = (entry: string) => entry.endsWith(' sent') || entry.endsWith(' dropped');
    await until(() => (settled.filter(final).length === 5 ? true : undefined), 'all five settled');
    expect(settled.filter(final).sort()).toEqual([
      'm400 dropped',
      'm404 dropped',
      'm408 sent',
      'm429 sent',
      'm500 sent',
    ]);
    // Settled for good: nothing is left to try, so the 4xx ones can never go again.
    expect(await waiting(store)).toEqual([]);
    const tries = (id: string) => target.received.filter((r) => r.id === id).map((r) => r.status);
    expect(tries('m400')).toEqual([400]);
    expect(tries('m404')).toEqual([404]);
    expect(tries('m408')).toEqual([408, 200]);
    expect(tries('m429')).toEqual([429, 200]);
    expect(tries('m500')).toEqual([500, 503, 200]);
  });

  it("makes each POST a client span of its delivery's trace: the host, the status and the try, never the URL's secrets", async () => {
    const store = openStore();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const answers = [503, 200];
    const ops = await receiver(SECRET, (request) => ({
      status: request.id === 'msg_traced' ? (answers.shift() ?? 200) : 200,
    }));
    await store.enqueueOutbox([
      { ...message('msg_traced', 'endpoint:ops'), traceContext: traceparent },
      message('msg_untraced', 'endpoint:ops'),
    ]);
    const { tracer, seen } = recordingTracer();
    const url = `${ops.origin.replace('//', '//ops-user:pa55-in-url@')}/in-path-token?key=in-query`;
    const { settled } = sender(store, { 'endpoint:ops': { url, secret: SECRET } }, {}, { tracer });
    const final = (entry: string) => entry.endsWith(' sent');
    await until(() => (settled.filter(final).length === 2 ? true : undefined), 'both sent');

    const spans = (id: string) =>
      seen.filter((span) => span.options.attributes?.['webhook_gateway.outbox.message_id'] === id);
    const traced = spans('msg_traced');
    expect(traced.map((span) => [span.name, span.options.kind, span.options.parent])).toEqual([
      ['outbox send', 'client', traceparent],
      ['outbox send', 'client', traceparent],
    ]);
    expect(traced.map((span) => span.options.attributes)).toEqual(
      [1, 2].map((attempt) => ({
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'webhook_gateway.outbox.destination': 'endpoint:ops',
        'webhook_gateway.outbox.message_id': 'msg_traced',
        'webhook_gateway.attempt': attempt,
      })),
    );
    expect(traced[0]?.calls).toEqual([
      ['attributes', { 'http.response.status_code': 503, 'webhook_gateway.outcome': 'retry' }],
      ['error', 'the receiver answered 503'],
      ['end'],
    ]);
    expect(traced[1]?.calls).toEqual([
      ['attributes', { 'http.response.status_code': 200, 'webhook_gateway.outcome': 'sent' }],
      ['end'],
    ]);
    // A message of a delivery that was not traced: a span of its own trace.
    const untraced = spans('msg_untraced');
    expect(untraced).toHaveLength(1);
    expect(untraced[0]?.options.parent).toBeUndefined();
    const recorded = JSON.stringify(seen);
    for (const secret of ['pa55-in-url', 'ops-user', 'in-path-token', 'in-query', SECRET])
      expect(recorded).not.toContain(secret);
  });

  it("respects Retry-After: nothing reaches that receiver sooner, by the receiver's own clock", async () => {
    const store = openStore();
    let refused = false;
    const slow = await receiver(SECRET, () => {
      if (refused) return { status: 204 };
      refused = true;
      return { status: 503, headers: { 'Retry-After': '2' } };
    });
    await store.enqueueOutbox(['a', 'b', 'c'].map((id) => message(id, 'outbound:slow')));
    // One at a time, so b and c are claimed after a's 503 and must wait for its Retry-After.
    const { settled } = sender(
      store,
      { 'outbound:slow': { url: slow.origin, secret: SECRET } },
      { concurrency: 1 },
    );
    await until(() => (slow.accepted().unique.size === 3 ? true : undefined), 'all three');
    const [first, ...rest] = slow.received;
    expect(first?.status).toBe(503);
    expect(rest.map((r) => r.status)).toEqual([204, 204, 204]);
    for (const later of rest) expect(later.at - (first?.at ?? 0)).toBeGreaterThanOrEqual(2000);
    expect(rest.map((r) => r.id).sort()).toEqual(['a', 'b', 'c']);
    // b and c were held back untried while the receiver's Retry-After ran, not just late.
    expect(settled).toEqual(expect.arrayContaining(['a retry', 'b defer', 'c defer']));
  });

  it('on stop, releases a POST under way: due again at once, the try not counted', async () => {
    const store = openStore();
    const hung = await receiver(SECRET, () => ({ status: 200, delayMs: 5000 }));
    await store.enqueueOutbox([message('m-hung', 'outbound:hung')]);
    const running = new OutboxSender({
      store,
      log: silentLogger(),
      destinations: () => new Map([['outbound:hung', { url: hung.origin, secret: SECRET }]]),
      options: webhookOptionsSchema.parse({ poll_interval_ms: 50 }),
    });
    running.start();
    await until(() => (hung.received.length === 1 ? true : undefined), 'the POST to start');
    await running.stop();
    const [released] = (await store.claimOutbox(Date.now(), 1000, 10)).messages;
    expect(released).toMatchObject({ id: 'm-hung', attempts: 0, lastError: null });
  });

  it('keeps a message whose destination the config no longer has, untried, until it expires', async () => {
    const store = openStore();
    const other = await receiver(SECRET);
    await store.enqueueOutbox([message('m-gone', 'endpoint:removed')]);
    sender(store, { 'endpoint:kept': { url: other.origin, secret: SECRET } });
    await until(async () => {
      const [kept] = await waiting(store, Date.now() + 120_000);
      return kept?.id === 'm-gone' && kept.attempts === 0 ? true : undefined;
    }, 'the message to be deferred');
    expect(await waiting(store, Date.now() + 30_000)).toEqual([]);
  });

  it('reads nothing while the config names no destination at all', async () => {
    const store = openStore();
    await store.enqueueOutbox([message('m-idle', 'outbound:later')]);
    const { sender: idle } = sender(store, {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    await idle.stop();
    // Never claimed: due as it was written, no lease on it, no try counted.
    const [untouched] = (await store.claimOutbox(Date.now(), 1000, 10)).messages;
    expect(untouched).toMatchObject({ id: 'm-idle', attempts: 0 });
  });

  it('drops messages that expired unsent', async () => {
    const store = openStore();
    const now = Date.now();
    await store.enqueueOutbox([{ ...message('m-old', 'outbound:x'), expiresAt: now + 30 }]);
    const claim = await store.claimOutbox(now + 30, 1000, 10);
    expect(claim).toEqual({ messages: [], expired: 1 });
  });
});
