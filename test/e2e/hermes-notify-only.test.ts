/**
 * Hermes Agent's notify-only routes, silence and small parity items through the
 * running gateway, against a fake Telegram Bot API on 127.0.0.1. Translated from Hermes' adapter
 * tests: `test_webhook_deliver_only.py` (`test_post_delivers_directly_without_agent`,
 * `test_hmac_still_enforced`), `test_webhook_adapter.py` (`TestWebhookSilenceSuppression`,
 * `TestRawTemplateToken.test_raw_mixed_with_other_variables`,
 * `TestDeliverCrossPlatformThreadId.test_thread_id_passed_as_metadata`). Where this gateway
 * differs on purpose (it answers 202 and delivers after, and only an answer of exactly
 * `[SILENT]` is silent), the test says so.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanupHomes,
  makeHome,
  startGateway,
  waitFor,
  type StartedGateway,
} from '../support/gateway.js';
import { finishedRow, listDeliveries } from '../support/journal-read.js';
import { readAgentRecords, recordingAgent } from '../support/records.js';
import { newDeliveryId, post, signForge, type Sent } from '../support/requests.js';

const TOKEN = '123456:TEST-hermes-telegram';

interface TelegramMessage {
  chat_id: string;
  text: string;
  message_thread_id?: number;
}

const messages: TelegramMessage[] = [];
let telegram: http.Server;
let telegramUrl: string;
let gateway: StartedGateway;
let home: string;
let agentLog: string;

/** A `command` agent that answers `text` whatever the prompt. */
function answering(text: string): Record<string, unknown> {
  return { command: [process.execPath, '-e', 'process.stdout.write(process.argv[1])', text] };
}

function send(
  route: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<Sent> {
  return post(`${gateway.url}/webhooks/${route}`, JSON.stringify(payload), {
    'Content-Type': 'application/json',
    'X-GitHub-Delivery': newDeliveryId(),
    ...headers,
  });
}

function messagesWith(word: string): TelegramMessage[] {
  return messages.filter((message) => message.text.includes(word));
}

beforeAll(async () => {
  telegram = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.endsWith('/sendMessage')) {
        messages.push(JSON.parse(body) as TelegramMessage);
        res.end(JSON.stringify({ ok: true, result: { message_id: messages.length } }));
      } else {
        res.end(JSON.stringify({ ok: true, result: { id: 1, username: 'hermes_test_bot' } }));
      }
    });
  });
  await new Promise<void>((resolve) => telegram.listen(0, '127.0.0.1', resolve));
  telegramUrl = `http://127.0.0.1:${(telegram.address() as AddressInfo).port}`;

  home = makeHome();
  agentLog = path.join(home, 'agent.jsonl');
  const toChat = { deliver: 'telegram', deliver_extra: { chat_id: '12345' } };
  gateway = await startGateway({
    home,
    config: {
      agent: recordingAgent(agentLog),
      platforms: {
        telegram: { enabled: true, token: TOKEN, api_base: telegramUrl },
        webhook: {
          extra: {
            rate_limit: 1000,
            routes: {
              // Hermes' route, as its test writes it.
              'match-alert': {
                secret: 'INSECURE_NO_AUTH',
                deliver_only: true,
                ...toChat,
                prompt: '{payload.user} matched with {payload.other}!',
              },
              'notify-none': {
                secret: 'INSECURE_NO_AUTH',
                agent: { runner: 'none' },
                ...toChat,
                prompt: 'push to {ref} by {pusher.name}',
              },
              signed: {
                secret: 'real-secret-123',
                deliver_only: true,
                ...toChat,
                prompt: 'hi {id}',
              },
              quiet: { secret: 'INSECURE_NO_AUTH', agent: answering('[SILENT]'), ...toChat },
              'quiet-padded': {
                secret: 'INSECURE_NO_AUTH',
                agent: answering('  [SILENT]\n'),
                ...toChat,
              },
              'quiet-explained': {
                secret: 'INSECURE_NO_AUTH',
                agent: answering('[SILENT]\n\nNothing new to reply to (marker-prose)'),
                ...toChat,
              },
              skipping: { secret: 'INSECURE_NO_AUTH', agent: answering('SKIP'), ...toChat },
              raw: {
                secret: 'INSECURE_NO_AUTH',
                deliver_only: true,
                ...toChat,
                prompt: 'Action={action} Raw={__raw__}',
              },
              threaded: {
                secret: 'INSECURE_NO_AUTH',
                deliver_only: true,
                deliver: 'telegram',
                deliver_extra: { chat_id: '12345', thread_id: '999' },
                prompt: 'hello {id}',
              },
              off: { secret: 'INSECURE_NO_AUTH', enabled: false },
            },
          },
        },
      },
    },
  });
});

afterAll(async () => {
  await gateway.stop();
  await new Promise((resolve) => telegram.close(resolve));
  cleanupHomes();
});

describe('deliver_only and runner none: the rendered template is the answer, no model', () => {
  it('test_post_delivers_directly_without_agent (202, then the template is sent; no agent run)', async () => {
    const sent = await send('match-alert', { payload: { user: 'alice', other: 'bob' } });
    // Hermes answers 200 "delivered" after sending; this gateway journals first and answers 202.
    expect(sent.status).toBe(202);
    const row = await finishedRow(home, String(sent.body.delivery_id));
    expect(row.status).toBe('delivered');
    expect(row.answer).toBe('alice matched with bob!');
    expect(messagesWith('alice matched with bob!')).toEqual([
      { chat_id: '12345', text: 'alice matched with bob!' },
    ]);
    expect(readAgentRecords(agentLog).some((r) => r.deliveryId === row.deliveryId)).toBe(false);
  });

  it('runner: none does the same', async () => {
    const sent = await send('notify-none', { ref: 'refs/heads/main', pusher: { name: 'carol' } });
    const row = await finishedRow(home, String(sent.body.delivery_id));
    expect(row.answer).toBe('push to refs/heads/main by carol');
    expect(messagesWith('by carol')).toHaveLength(1);
    expect(readAgentRecords(agentLog)).toEqual([]);
  });

  it('test_hmac_still_enforced: an unsigned request is 401 and nothing is sent', async () => {
    const unsigned = await send('signed', { id: 'unsigned-1' });
    expect(unsigned.status).toBe(401);
    const body = JSON.stringify({ id: 'signed-1' });
    const signed = await post(`${gateway.url}/webhooks/signed`, body, {
      'Content-Type': 'application/json',
      'X-GitHub-Event': 'push',
      'X-Hub-Signature-256': signForge(body, 'real-secret-123'),
      'X-GitHub-Delivery': newDeliveryId(),
    });
    expect(signed.status).toBe(202);
    await finishedRow(home, String(signed.body.delivery_id));
    expect(messagesWith('unsigned-1')).toEqual([]);
    expect(messagesWith('signed-1')).toHaveLength(1);
  });
});

describe('[SILENT]', () => {
  it('test_bare_marker_is_not_delivered: the delivery ends silent, nothing is sent', async () => {
    for (const route of ['quiet', 'quiet-padded']) {
      const sent = await send(route, { n: 1 });
      const row = await finishedRow(home, String(sent.body.delivery_id));
      expect(row.status, route).toBe('silent');
      expect(row.lastError).toBeNull();
    }
    expect(messagesWith('[SILENT]')).toEqual([]);
  });

  it('test_marker_followed_by_prose: delivered here, on purpose (only an answer of exactly [SILENT] is silent)', async () => {
    const sent = await send('quiet-explained', { n: 2 });
    expect((await finishedRow(home, String(sent.body.delivery_id))).status).toBe('delivered');
    expect(messagesWith('marker-prose')).toHaveLength(1);
  });

  it('SKIP is still delivered', async () => {
    const sent = await send('skipping', { n: 3 });
    expect((await finishedRow(home, String(sent.body.delivery_id))).status).toBe('delivered');
    expect(messages.some((message) => message.text === 'SKIP')).toBe(true);
  });
});

describe('{__raw__}, thread ids, enabled', () => {
  it('test_raw_mixed_with_other_variables', async () => {
    const sent = await send('raw', { action: 'closed', number: 7 });
    const row = await finishedRow(home, String(sent.body.delivery_id));
    expect(row.answer?.startsWith('Action=closed Raw=')).toBe(true);
    expect(row.answer).toContain('"action": "closed"');
    expect(row.answer).toContain('"number": 7');
  });

  it('test_thread_id_passed_as_metadata: deliver_extra.thread_id is the forum topic', async () => {
    const sent = await send('threaded', { id: 'thread-1' });
    await finishedRow(home, String(sent.body.delivery_id));
    expect(messagesWith('thread-1')).toEqual([
      { chat_id: '12345', text: 'hello thread-1', message_thread_id: 999 },
    ]);
  });

  it('a route with enabled: false answers 403 Route disabled', async () => {
    const sent = await send('off', { a: 1 });
    expect(sent.status).toBe(403);
    expect(sent.body).toEqual({ error: 'Route disabled: off' });
  });

  it('the journal lists silent deliveries by status', async () => {
    const silent = await waitFor(async () => {
      const rows = await listDeliveries(home, '--status', 'silent');
      return rows.length >= 2 ? rows : undefined;
    }, 'two silent rows');
    expect(silent.every((row) => row.status === 'silent')).toBe(true);
  });
});
