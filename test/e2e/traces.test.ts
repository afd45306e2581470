/**
 * Traces through the built CLI (`observability.otlp`): a receiver and a worker on Redis export to
 * a fake collector that decodes the protobuf exports. One delivery is one trace: the receiver's
 * request span and journal commit, the worker's attempt, queue wait, render, run, the model's and
 * the terminal's calls, the target and the outcome, and the outbox's POSTs (the `webhook`
 * target's answer, a lifecycle event) from whichever process sent them. A request's own
 * `traceparent` is honoured, no secret reaches a span, and a collector that is down fails no
 * delivery: its spans are counted as dropped on /metrics.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answer,
  callTools,
  startFakeOpenAI,
  type FakeOpenAI,
} from '../../packages/agent/src/test-support/fake-openai.js';
import {
  startReceiver,
  type TestReceiver,
} from '../../packages/deliver-webhook/src/test-support/receiver.js';
import {
  startFakeCollector,
  type FakeCollector,
  type ReceivedSpan,
} from '../../packages/tracing/src/test-support/fake-collector.js';
import { cleanupHomes, makeHome, waitFor, writeConfig } from '../support/gateway.js';
import { pullRequestBody, startRole, type RoleProcess } from '../support/redis-gateways.js';
import { deleteKeys, findTestRedis, uniquePrefix } from '../support/redis-server.js';
import { newDeliveryId, sendForge } from '../support/requests.js';

const redis = await findTestRedis();
const SECRET = 'traces-webhook-secret-0123456789';
const COLLECTOR_KEY = 'collector-key-5b1f0c9e7a2d4e6f';
const ADMIN_TOKEN = 'traces-admin-token-9d8c7b6a5f4e3d2c';
const MODEL = 'trace-model';
// The chat service keeps its token in the URL's path: it must not reach a span.
const CHAT_TOKEN = '123456:trace-chat-token-abcdefghijklmnop';
const OUTBOUND_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
// The answers' endpoint keeps a token in its query: it must not reach a span either.
const ENDPOINT_TOKEN = 'endpoint-query-token-7f3e9a1c';

const prefix = uniquePrefix();
let collector: FakeCollector;
let chat: FakeOpenAI;
let receiver: RoleProcess;
let worker: RoleProcess;
let chatService: http.Server;
let outbound: TestReceiver;

beforeAll(async () => {
  if (!redis) return;
  collector = await startFakeCollector();
  chat = await startFakeOpenAI();
  // A chat service speaking the messenger_a (Telegram Bot API) wire format.
  chatService = http.createServer((req, res) => {
    req.resume().on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, result: { message_id: 1, id: 1, username: 'bot' } }));
    });
  });
  await new Promise<void>((resolve) => chatService.listen(0, '127.0.0.1', resolve));
  const chatServiceUrl = `http://127.0.0.1:${(chatService.address() as AddressInfo).port}`;
  // The endpoint of the `webhook` target answers each answer's first POST 503: two tries.
  const answersSeen = new Set<string>();
  outbound = await startReceiver(OUTBOUND_SECRET, (request) => {
    if (!request.path.startsWith('/answers') || answersSeen.has(request.id)) return { status: 200 };
    answersSeen.add(request.id);
    return { status: 503 };
  });
  const home = makeHome();
  const configFile = writeConfig(home, {
    store: { kind: 'redis', url: redis.url({ prefix }) },
    agent: { runner: 'openai', base_url: chat.baseUrl, model: MODEL, max_turns: 4 },
    observability: {
      otlp: { endpoint: collector.endpoint, headers: { 'x-collector-key': COLLECTOR_KEY } },
    },
    platforms: {
      telegram: { enabled: true, token: CHAT_TOKEN, api_base: chatServiceUrl },
      webhook_target: {
        endpoints: {
          ops: {
            url: `${outbound.origin}/answers?token=${ENDPOINT_TOKEN}`,
            secret: OUTBOUND_SECRET,
          },
        },
      },
      webhook: {
        extra: {
          secret: SECRET,
          admin: { host: '127.0.0.1', port: 0, token: ADMIN_TOKEN },
          outbound: [
            {
              url: `${outbound.origin}/events`,
              secret: OUTBOUND_SECRET,
              events: ['delivered'],
              routes: ['answers'],
            },
          ],
          routes: {
            answers: {
              events: ['pull_request'],
              deliver: 'webhook',
              deliver_extra: { endpoint: 'ops' },
            },
            reviews: { events: ['pull_request'], deliver: 'log' },
            chat: {
              events: ['pull_request'],
              deliver: 'telegram',
              deliver_extra: { chat_id: '42' },
            },
          },
        },
      },
    },
  });
  // Spans are exported in batches: a short delay keeps the test quick.
  const env = { OTEL_BSP_SCHEDULE_DELAY: '200' };
  receiver = await startRole('receiver', configFile, { env });
  worker = await startRole('worker', configFile, { env });
});

afterAll(async () => {
  await Promise.all([receiver?.stop(), worker?.stop()]);
  await chat?.close();
  await new Promise((resolve) => chatService?.close(resolve));
  await outbound?.close();
  await collector?.close();
  if (redis) await deleteKeys(redis.url(), prefix);
  await redis?.stop();
  cleanupHomes();
});

function receiverUrl(): string {
  if (!receiver.url) throw new Error('the receiver does not listen');
  return receiver.url;
}

/** The spans of the trace whose request span carries `deliveryId`, once its outcome is in. */
async function traceOf(deliveryId: string): Promise<ReceivedSpan[]> {
  return waitFor(
    () => {
      const receive = collector
        .spans()
        .find(
          (span) =>
            span.name === 'webhook receive' &&
            span.attributes['webhook_gateway.delivery_id'] === deliveryId,
        );
      if (!receive) return undefined;
      const trace = collector.spans().filter((span) => span.traceId === receive.traceId);
      const attempt = trace.find((span) => span.name === 'delivery attempt');
      return attempt?.attributes['webhook_gateway.outcome'] !== undefined && trace;
    },
    `the trace of delivery ${deliveryId}`,
    { timeoutMs: 30_000 },
  );
}

function named(trace: ReceivedSpan[], name: string): ReceivedSpan {
  const span = trace.find((candidate) => candidate.name === name);
  if (!span) throw new Error(`no span "${name}" in ${trace.map((s) => s.name).join(', ')}`);
  return span;
}

describe.skipIf(!redis)('traces of a delivery accepted by a receiver and run by a worker', () => {
  it('are one trace with the request, the journal, the attempt, the model and the tool', async () => {
    chat.script(
      callTools([{ arguments: { command: 'echo traced' } }]),
      answer('Looks fine.', { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 }),
    );
    const deliveryId = newDeliveryId();
    const sent = await sendForge(receiverUrl(), 'reviews', {
      body: pullRequestBody(7),
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    expect(sent.status).toBe(202);
    const trace = await traceOf(deliveryId);

    const receive = named(trace, 'webhook receive');
    expect(receive.kind).toBe(2);
    expect(receive.parentSpanId).toBe('');
    expect(receive.attributes['http.response.status_code']).toBe(202);
    expect(receive.events.map((event) => event.name)).toEqual([
      'check route',
      'check authenticate',
      'check rate limit',
      'check filter',
    ]);
    expect(receive.events.every((event) => event.attributes.passed === true)).toBe(true);
    expect(named(trace, 'journal commit').parentSpanId).toBe(receive.spanId);

    // The attempt ran in the other process, under the journaled request span.
    const attempt = named(trace, 'delivery attempt');
    expect(attempt.parentSpanId).toBe(receive.spanId);
    expect(receive.resource['process.pid']).toBe(receiver.pid);
    expect(attempt.resource['process.pid']).toBe(worker.pid);
    expect(attempt.attributes['webhook_gateway.outcome']).toBe('delivered');
    for (const step of [
      'queue wait',
      'journal running',
      'render',
      'agent run',
      'deliver',
      'outcome',
    ])
      expect(named(trace, step).parentSpanId, step).toBe(attempt.spanId);
    expect(named(trace, 'queue wait').startMs).toBeGreaterThanOrEqual(receive.startMs);
    expect(named(trace, 'journal running').startMs).toBe(attempt.startMs);

    const run = named(trace, 'agent run');
    const models = trace.filter((span) => span.name === `chat ${MODEL}`);
    expect(models).toHaveLength(2);
    expect(models.every((span) => span.parentSpanId === run.spanId && span.kind === 3)).toBe(true);
    expect(models[1]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': MODEL,
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.usage.cache_read.input_tokens': 0,
    });
    const tool = named(trace, 'execute_tool terminal');
    expect(tool.parentSpanId).toBe(run.spanId);
    expect(tool.attributes).toMatchObject({
      'gen_ai.tool.name': 'terminal',
      'webhook_gateway.tool.program': 'echo',
      'process.exit.code': 0,
    });
    expect(JSON.stringify(tool)).not.toContain('traced');

    // The collector's key went with each export, and no secret into a span.
    expect(collector.exportHeaders()[0]?.['x-collector-key']).toBe(COLLECTOR_KEY);
    const exported = JSON.stringify(collector.spans());
    for (const secret of [SECRET, COLLECTOR_KEY, ADMIN_TOKEN])
      expect(exported).not.toContain(secret);
  });

  it("has each call to the route's chat service as a span, without the token in its URL", async () => {
    chat.script(answer('Posted to the chat.'));
    const deliveryId = newDeliveryId();
    const sent = await sendForge(receiverUrl(), 'chat', {
      body: pullRequestBody(11),
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    expect(sent.status).toBe(202);
    const trace = await traceOf(deliveryId);
    const deliver = named(trace, 'deliver');
    const calls = trace.filter((span) => span.parentSpanId === deliver.spanId);
    expect(calls.map((span) => span.name)).toEqual(['POST Telegram']);
    expect(calls[0]?.kind).toBe(3);
    expect(calls[0]?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'http.response.status_code': 200,
    });
    expect(JSON.stringify(collector.spans())).not.toContain('trace-chat-token');
  });

  it("has each POST of the outbox in the delivery's trace: the answer's two tries and the lifecycle event", async () => {
    chat.script(answer('An answer for the endpoint.'));
    const deliveryId = newDeliveryId();
    const sent = await sendForge(receiverUrl(), 'answers', {
      body: pullRequestBody(12),
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    expect(sent.status).toBe(202);
    const receive = named(await traceOf(deliveryId), 'webhook receive');
    // The answer's 503 and its retry's 200, and the `delivered` event.
    const sends = await waitFor(
      () => {
        const found = collector
          .spans()
          .filter((span) => span.traceId === receive.traceId && span.name === 'outbox send');
        return found.length >= 3 && found;
      },
      "the outbox's POST spans",
      { timeoutMs: 30_000 },
    );
    expect(sends).toHaveLength(3);
    for (const span of sends) {
      expect(span.parentSpanId).toBe(receive.spanId);
      expect(span.kind).toBe(3);
      expect(span.attributes['server.address']).toBe('127.0.0.1');
      expect(span.attributes['http.request.method']).toBe('POST');
    }
    const answerTries = sends
      .filter((span) => span.attributes['webhook_gateway.outbox.destination'] === 'endpoint:ops')
      .sort((a, b) => a.startMs - b.startMs);
    expect(
      answerTries.map((span) => [
        span.attributes['webhook_gateway.attempt'],
        span.attributes['http.response.status_code'],
        span.attributes['webhook_gateway.outcome'],
        span.statusCode,
      ]),
    ).toEqual([
      [1, 503, 'retry', 2],
      [2, 200, 'sent', 0],
    ]);
    expect(answerTries[0]?.statusMessage).toBe('the receiver answered 503');
    const event = sends.find((span) =>
      String(span.attributes['webhook_gateway.outbox.destination']).startsWith('outbound:'),
    );
    expect(event?.attributes).toMatchObject({
      'webhook_gateway.attempt': 1,
      'http.response.status_code': 200,
      'webhook_gateway.outcome': 'sent',
    });
    // Both tries of the answer reached the endpoint, as the spans say.
    const answerPosts = outbound.received.filter(
      (request) =>
        request.path.startsWith('/answers') && request.json.data.delivery_id === deliveryId,
    );
    expect(answerPosts.map((request) => request.status)).toEqual([503, 200]);
    const exported = JSON.stringify(collector.spans());
    for (const secret of [ENDPOINT_TOKEN, OUTBOUND_SECRET, '/answers'])
      expect(exported).not.toContain(secret);
  });

  it("continues the trace of the request's own traceparent", async () => {
    chat.script(answer('Fine.'));
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentSpanId = '00f067aa0ba902b7';
    const deliveryId = newDeliveryId();
    const sent = await sendForge(receiverUrl(), 'reviews', {
      body: pullRequestBody(8),
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
      headers: { traceparent: `00-${traceId}-${parentSpanId}-01` },
    });
    expect(sent.status).toBe(202);
    const trace = await traceOf(deliveryId);
    const receive = named(trace, 'webhook receive');
    expect(receive.traceId).toBe(traceId);
    expect(receive.parentSpanId).toBe(parentSpanId);
    expect(named(trace, 'delivery attempt').traceId).toBe(traceId);
  });

  it('records a refused request with the check that refused it', async () => {
    const deliveryId = newDeliveryId();
    const sent = await sendForge(receiverUrl(), 'reviews', {
      body: pullRequestBody(9),
      secret: 'another-secret-0123456789abcdef',
      event: 'pull_request',
      deliveryId,
    });
    expect(sent.status).toBe(401);
    const refused = await waitFor(
      () =>
        collector
          .spans()
          .find(
            (span) =>
              span.name === 'webhook receive' &&
              span.attributes['http.response.status_code'] === 401,
          ),
      'the refused request span',
    );
    expect(refused.attributes['webhook_gateway.request.outcome']).toBe('unauthorized');
    expect(refused.events.at(-1)).toEqual({
      name: 'check authenticate',
      attributes: { passed: false, status: 401 },
    });
  });

  it('delivers while the collector is down, and counts the spans it dropped', async () => {
    collector.setDown(true);
    chat.script(answer('Delivered without a collector.'));
    const deliveryId = newDeliveryId();
    const sent = await sendForge(receiverUrl(), 'reviews', {
      body: pullRequestBody(10),
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    expect(sent.status).toBe(202);
    await waitFor(
      () =>
        worker
          .logLines()
          .some((line) => line.msg === 'delivered' && line.delivery_id === deliveryId),
      'the delivery while the collector is down',
    );
    const port = await waitFor(
      () => worker.logLines().find((line) => line.msg === 'admin listening')?.port as number,
      "the worker's admin listener",
    );
    const dropped = await waitFor(
      async () => {
        const metrics = await fetch(`http://127.0.0.1:${port}/metrics`, {
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
        }).then((response) => response.text());
        const value = /^webhook_trace_spans_dropped_total (\d+)$/m.exec(metrics)?.[1];
        return value !== undefined && Number(value) > 0 && Number(value);
      },
      'the dropped spans on /metrics',
      { timeoutMs: 30_000 },
    );
    expect(dropped).toBeGreaterThan(0);
    expect(collector.refused()).toBeGreaterThan(0);
    collector.setDown(false);
  });
});
