/**
 * `GET /metrics` on the admin listener of the real CLI: exact values after a known sequence of
 * webhook requests, agent runs (a recording command agent and a fake chat-completions server)
 * and deliveries.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminUrlOf,
  cleanupHomes,
  makeHome,
  startGateway,
  waitFor,
  type StartedGateway,
} from '../support/gateway.js';
import { readAgentRecords, recordAgentPath, recordingAgent } from '../support/records.js';
import { fixture, newDeliveryId, post, sendForge } from '../support/requests.js';

const SECRET = 'metrics-secret-0123456789';
const ADMIN_TOKEN = 'metrics-admin-token-5f0c9a7e1b2d4c6a';
const RATE_LIMIT = 5;

/** One sample of the Prometheus text format. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text exposition format (comments skipped, label values unescaped). */
function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g;
    for (const label of (match[2] ?? '').matchAll(labelPattern)) {
      labels[label[1] ?? ''] = (label[2] ?? '').replace(/\\(.)/g, (_, c: string) =>
        c === 'n' ? '\n' : c,
      );
    }
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/** `name{a="1",b="2"}` → value, for the series of one metric. */
function seriesOf(samples: Sample[], name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const sample of samples.filter((s) => s.name === name)) {
    const labels = Object.entries(sample.labels)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, value]) => `${key}=${value}`)
      .join(',');
    out[labels] = sample.value;
  }
  return out;
}

/** A chat-completions server on loopback that answers at once, with known token counts. */
async function startFakeChatServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [
            { message: { role: 'assistant', content: 'All good.' }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let gateway: StartedGateway;
let chat: Awaited<ReturnType<typeof startFakeChatServer>>;
let agentLog: string;
let adminUrl: string;

/** Scrapes /metrics with `token` (null: without an Authorization header). */
async function scrape(token: string | null = ADMIN_TOKEN): Promise<Response> {
  return fetch(`${adminUrl}/metrics`, {
    headers: token === null ? {} : { Authorization: `Bearer ${token}` },
  });
}

async function samples(): Promise<Sample[]> {
  const response = await scrape();
  expect(response.status).toBe(200);
  return parsePrometheus(await response.text());
}

beforeAll(async () => {
  chat = await startFakeChatServer();
  const home = makeHome();
  agentLog = path.join(home, 'agent.jsonl');
  gateway = await startGateway({
    home,
    config: {
      agent: recordingAgent(agentLog),
      platforms: {
        webhook: {
          extra: {
            secret: SECRET,
            max_body_bytes: 65_536,
            rate_limit: RATE_LIMIT,
            admin: { host: '127.0.0.1', port: 0, token: ADMIN_TOKEN },
            routes: {
              reviews: { events: ['pull_request'] },
              busy: { events: ['push'] },
              broken: {
                agent: { command: [process.execPath, recordAgentPath, agentLog, 'fail'] },
                max_attempts: 1,
              },
              priced: {
                agent: {
                  runner: 'openai',
                  base_url: chat.url,
                  model: 'fake-model',
                  terminal: { enabled: false },
                  prices: { prompt_per_1k: 2, completion_per_1k: 10, currency: 'EUR' },
                },
              },
            },
          },
        },
      },
    },
  });
  adminUrl = await adminUrlOf(gateway);
});

afterAll(async () => {
  await gateway?.stop();
  await chat?.close();
  cleanupHomes();
});

describe('the admin listener', () => {
  it('logs its bound port and prints nothing of its own to stdout', () => {
    expect(gateway.stdout()).not.toContain('admin');
    expect(gateway.stdout().trim().split('\n')).toHaveLength(1);
    expect(adminUrl).not.toBe(gateway.url);
  });

  it('refuses /metrics without the token or with another one', async () => {
    const missing = await scrape(null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    expect((await scrape(`${ADMIN_TOKEN}x`)).status).toBe(401);
    expect((await scrape(ADMIN_TOKEN.slice(0, -1))).status).toBe(401);
  });

  it('does not serve /metrics on the public webhook port', async () => {
    const response = await fetch(`${gateway.url}/metrics`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(404);
  });
});

describe('metrics after a known sequence of requests', () => {
  const pullRequest = fixture('forge/pull_request_opened.json');
  const ping = fixture('forge/ping.json');

  beforeAll(async () => {
    const send = (route: string, body: Buffer | string, event: string, deliveryId?: string) =>
      sendForge(gateway.url, route, {
        body,
        secret: SECRET,
        event,
        ...(deliveryId ? { deliveryId } : {}),
      });
    const reviewId = newDeliveryId();
    const statuses = [
      (await send('reviews', pullRequest, 'pull_request', reviewId)).status,
      (await send('reviews', pullRequest, 'pull_request', reviewId)).status,
      (await send('reviews', ping, 'ping')).status,
      (
        await sendForge(gateway.url, 'reviews', {
          body: pullRequest,
          secret: 'another-secret-000000',
          event: 'pull_request',
        })
      ).status,
      (await send('reviews', Buffer.alloc(100_000, 'x'), 'pull_request')).status,
      (await send('reviews', '{not json', 'pull_request')).status,
      (await post(`${gateway.url}/webhooks/nope`, '{}', { 'Content-Type': 'application/json' }))
        .status,
      (
        await post(`${gateway.url}/webhooks/attacker-${Date.now()}`, '{}', {
          'Content-Type': 'application/json',
        })
      ).status,
      (await send('broken', pullRequest, 'pull_request')).status,
      (await send('priced', pullRequest, 'pull_request')).status,
    ];
    for (let i = 0; i <= RATE_LIMIT; i++) statuses.push((await send('busy', ping, 'ping')).status);
    // The sequence itself is the HTTP contract's business; here it must be what the counts assume.
    expect(statuses).toEqual([
      202, 200, 200, 401, 413, 400, 404, 404, 202, 202, 200, 200, 200, 200, 200, 429,
    ]);
  });

  it('counts each request by route and outcome, unknown routes under one empty route', async () => {
    expect(seriesOf(await samples(), 'webhook_requests_total')).toEqual({
      'outcome=accepted,route=reviews': 1,
      'outcome=duplicate,route=reviews': 1,
      'outcome=ignored,route=reviews': 1,
      'outcome=unauthorized,route=reviews': 1,
      'outcome=too_large,route=reviews': 1,
      'outcome=bad_request,route=reviews': 1,
      'outcome=unknown_route,route=': 2,
      'outcome=accepted,route=broken': 1,
      'outcome=accepted,route=priced': 1,
      'outcome=ignored,route=busy': RATE_LIMIT,
      'outcome=rate_limited,route=busy': 1,
    });
  });

  it('counts delivery attempts and final failures by target once the work is done', async () => {
    await waitFor(async () => {
      const attempts = seriesOf(await samples(), 'webhook_delivery_attempts_total');
      const finished = Object.values(attempts).reduce((sum, value) => sum + value, 0);
      return finished >= 3 ? true : undefined;
    }, 'three finished attempts');
    const now = await samples();
    expect(seriesOf(now, 'webhook_delivery_attempts_total')).toEqual({
      'status=delivered,target=log': 2,
      'status=failed,target=log': 1,
    });
    expect(seriesOf(now, 'webhook_delivery_failures_total')).toEqual({ 'target=log': 1 });
    expect(seriesOf(now, 'webhook_queue_depth')).toEqual({ '': 0 });
    expect(seriesOf(now, 'webhook_deliveries_running')).toEqual({ '': 0 });
    expect(
      readAgentRecords(agentLog)
        .map((r) => r.route)
        .sort(),
    ).toEqual(['broken', 'reviews']);
  });

  it('observes the duration of each agent run that answered, by route', async () => {
    const now = await samples();
    expect(seriesOf(now, 'webhook_agent_run_duration_seconds_count')).toEqual({
      'route=reviews': 1,
      'route=priced': 1,
    });
    const buckets = seriesOf(now, 'webhook_agent_run_duration_seconds_bucket');
    expect(buckets['le=+Inf,route=reviews']).toBe(1);
  });

  it('adds the tokens the agent reported to its route', async () => {
    expect(seriesOf(await samples(), 'webhook_agent_tokens_total')).toEqual({
      'kind=prompt,model=fake-model,route=priced': 11,
      'kind=completion,model=fake-model,route=priced': 7,
    });
  });

  it('adds what those tokens cost at agent.prices, by route, model and currency', async () => {
    // 11 prompt tokens at 2 and 7 completion tokens at 10 per 1k
    const cost = seriesOf(await samples(), 'webhook_agent_cost_total');
    expect(Object.keys(cost)).toEqual(['currency=EUR,model=fake-model,route=priced']);
    expect(cost['currency=EUR,model=fake-model,route=priced']).toBeCloseTo(0.092, 9);
  });

  it('includes the default process metrics and answers in the text format', async () => {
    const response = await scrape();
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const names = new Set(parsePrometheus(await response.text()).map((s) => s.name));
    expect(names).toContain('process_cpu_user_seconds_total');
    expect(names).toContain('process_resident_memory_bytes');
    expect(names).toContain('nodejs_eventloop_lag_seconds');
  });
});
