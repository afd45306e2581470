/**
 * Outbound webhooks through a whole gateway in this process, on a SQLite journal file: a route
 * delivering to `webhook`, and `extra.outbound` hearing its lifecycle.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { definePlugin, parseConfig, silentLogger } from '@webhook-gateway/core';
import { createGateway, type Gateway } from '@webhook-gateway/core/runtime';
import { openSqliteStore } from '@webhook-gateway/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { startReceiver, type TestReceiver } from './test-support/receiver.js';

const EVENTS_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ANSWERS_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const fixedRunner = definePlugin({
  name: 'fixed-answer-runner',
  setup({ hooks }) {
    hooks.run
      .for('fixed')
      .tapPromise('fixed-answer-runner', async () => ({ answer: 'Looks good to me.' }));
  },
});

async function receiver(secret: string): Promise<TestReceiver> {
  const started = await startReceiver(secret);
  cleanups.push(() => started.close());
  return started;
}

async function gatewayWith(
  raw: Record<string, unknown>,
): Promise<{ gateway: Gateway; url: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-outbound-gw-'));
  const config = parseConfig(raw, {}, [plugin]);
  const gateway = await createGateway({
    config,
    home: dir,
    store: openSqliteStore({ path: path.join(dir, 'state.db') }),
    log: silentLogger(),
    plugins: [
      { plugin, options: { poll_interval_ms: 100 } },
      { plugin: fixedRunner, options: undefined },
    ],
  });
  const { port } = await gateway.start();
  cleanups.push(async () => {
    await gateway.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { gateway, url: `http://127.0.0.1:${port}` };
}

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('outbound webhooks in a running gateway', () => {
  it("posts a webhook route's answer to its endpoint, and the route's lifecycle to extra.outbound", async () => {
    const events = await receiver(EVENTS_SECRET);
    const answers = await receiver(ANSWERS_SECRET);
    const { url } = await gatewayWith({
      agent: { runner: 'fixed' },
      platforms: {
        webhook_target: {
          endpoints: { ops: { url: `${answers.origin}/answers`, secret: ANSWERS_SECRET } },
        },
        webhook: {
          extra: {
            host: '127.0.0.1',
            port: 0,
            outbound: [
              {
                url: `${events.origin}/events`,
                secret: EVENTS_SECRET,
                events: ['accepted', 'delivered'],
                include_answer: true,
              },
            ],
            routes: {
              review: {
                secret: 'INSECURE_NO_AUTH',
                deliver: 'webhook',
                deliver_extra: { endpoint: 'ops' },
              },
            },
          },
        },
      },
    });
    const sent = await fetch(`${url}/webhooks/review`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forge-event': 'pull_request',
        'x-forge-delivery': 'd-42',
      },
      body: JSON.stringify({ action: 'opened', number: 7, repository: { full_name: 'octo/repo' } }),
    });
    expect(sent.status).toBe(202);

    const [answer] = await until(
      () => (answers.received.length > 0 ? answers.received : undefined),
      'the answer',
    );
    expect(answer).toMatchObject({ verified: true, path: '/answers' });
    expect(answer?.json).toMatchObject({
      type: 'delivery.answer',
      data: {
        route: 'review',
        delivery_id: 'd-42',
        sender_event: 'pull_request',
        action: 'opened',
        answer: 'Looks good to me.',
        line_comments: [],
      },
    });
    const received = await until(
      () => (events.received.length >= 2 ? events.received : undefined),
      'two lifecycle events',
    );
    // Sent at least once each, in no promised order.
    expect(received.map((r) => [r.json.type, r.verified, r.path]).sort()).toEqual([
      ['delivery.accepted', true, '/events'],
      ['delivery.delivered', true, '/events'],
    ]);
    const delivered = received.find((r) => r.json.type === 'delivery.delivered');
    expect(delivered?.json.data).toMatchObject({
      route: 'review',
      delivery_id: 'd-42',
      status: 'delivered',
      attempt: 1,
      answer: 'Looks good to me.',
    });
  });

  it('refuses at start a webhook route naming no endpoint, or one not configured, by its key path', async () => {
    const config = (deliver_extra: Record<string, unknown>) =>
      parseConfig(
        {
          platforms: {
            webhook_target: {
              endpoints: { ops: { url: 'https://ops.example.com/', secret: EVENTS_SECRET } },
            },
            webhook: {
              extra: { routes: { review: { secret: 's', deliver: 'webhook', deliver_extra } } },
            },
          },
        },
        {},
        [plugin],
      );
    expect(plugin.check?.(config({}))).toEqual([
      {
        path: 'platforms.webhook.extra.routes.review.deliver_extra.endpoint',
        message:
          'set deliver_extra.endpoint to an endpoint of platforms.webhook_target.endpoints (ops)',
      },
    ]);
    expect(plugin.check?.(config({ endpoint: 'pager' }))).toEqual([
      {
        path: 'platforms.webhook.extra.routes.review.deliver_extra.endpoint',
        message:
          'deliver_extra.endpoint names "pager", which platforms.webhook_target.endpoints does not have (ops)',
      },
    ]);
    expect(plugin.check?.(config({ endpoint: 'ops' }))).toEqual([]);
    expect(plugin.check?.(config({ endpoint: '{repository.name}' }))).toEqual([]);
  });

  it('checks the endpoints like extra.outbound: https or loopback, a Standard Webhooks secret', () => {
    let message = '';
    try {
      parseConfig(
        {
          platforms: {
            webhook_target: {
              endpoints: { ops: { url: 'http://ops.example.com/', secret: 'plain words' } },
            },
          },
        },
        {},
        [plugin],
      );
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('platforms.webhook_target.endpoints.ops.url');
    expect(message).toContain('platforms.webhook_target.endpoints.ops.secret');
  });
});
