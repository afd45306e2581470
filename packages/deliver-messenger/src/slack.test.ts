import { afterEach, describe, expect, it } from 'vitest';
import {
  checkWithConfig,
  deliverWithConfig,
  messengerRequest,
} from './test-support/messenger-request.js';
import { messengerOptionsSchema } from './index.js';
import { SentParts } from '@webhook-gateway/target-kit';
import { slack } from './slack.js';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { startFakeService, type FakeService } from '@webhook-gateway/target-kit/testing';

const TOKEN = 'xoxb-slack-test-token';
const posted = { status: 200, body: { ok: true, channel: 'C0123456', ts: '1503435956.000247' } };

let fake: FakeService | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const context = () => ({ options: messengerOptionsSchema.parse({}), sentParts: new SentParts() });

function request(apiBase: string, answer: string, extra: Record<string, unknown> = {}) {
  return messengerRequest({
    answer,
    platforms: {
      slack: { enabled: true, token: TOKEN, home_channel: 'C0123456', api_base: apiBase },
    },
    extra,
    log: capturingLogger().log,
  });
}

describe('messenger_c (Slack)', () => {
  it('answers in a thread: deliver_extra.thread_id as thread_ts', async () => {
    fake = await startFakeService(() => posted);
    const threaded = request(fake.url, 'Ship it', { thread_id: '1503435956.000247' });
    await deliverWithConfig(slack, threaded, context());
    expect(fake.requests[0]?.json).toEqual({
      channel: 'C0123456',
      text: 'Ship it',
      thread_ts: '1503435956.000247',
    });
  });

  it('posts {channel, text} with a Bearer token to /api/chat.postMessage', async () => {
    fake = await startFakeService(() => posted);
    await deliverWithConfig(slack, request(fake.url, 'Ship it'), context());
    const [received] = fake.requests;
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/api/chat.postMessage');
    expect(received?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(received?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(received?.json).toEqual({ channel: 'C0123456', text: 'Ship it' });
  });

  it('treats an HTTP 200 with "ok": false as a failure and says Slack\'s error code', async () => {
    fake = await startFakeService(() => ({
      status: 200,
      body: { ok: false, error: 'channel_not_found' },
    }));
    const error = (await deliverWithConfig(slack, request(fake.url, 'hi'), context()).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(
      /^messenger_c \(Slack\): sending to channel C0123456 failed: Slack refused the message: channel_not_found \(/,
    );
    expect(error.message).not.toContain(TOKEN);
  });

  it('waits the Retry-After of a 429 "ratelimited", then sends again', async () => {
    fake = await startFakeService((_, index) =>
      index === 0
        ? {
            status: 429,
            headers: { 'retry-after': '1' },
            body: { ok: false, error: 'ratelimited' },
          }
        : posted,
    );
    const started = Date.now();
    await deliverWithConfig(slack, request(fake.url, 'hi'), context());
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests).toHaveLength(2);
  });

  it('splits at 4,000 characters on word boundaries when there are no line breaks', async () => {
    fake = await startFakeService(() => posted);
    const words = Array.from({ length: 1500 }, (_, i) => `w${String(i).padStart(5, '0')}`);
    await deliverWithConfig(slack, request(fake.url, words.join(' ')), context());
    const texts = fake.requests.map((r) => (r.json as { text: string }).text);
    expect(texts.length).toBe(3);
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(4000);
    expect(texts.join(' ')).toBe(words.join(' '));
  });

  it('checks the token with POST /api/auth.test', async () => {
    fake = await startFakeService(() => ({
      status: 200,
      body: {
        ok: true,
        url: 'https://acme.slack.com/',
        team: 'Acme',
        user: 'reviewbot',
        team_id: 'T1',
        user_id: 'U1',
        bot_id: 'B1',
      },
    }));
    const outcome = await checkWithConfig(slack, request(fake.url, '').config, { timeoutMs: 1000 });
    expect(outcome).toEqual({ connected: true, identity: 'reviewbot in Acme' });
    expect(fake.requests[0]?.method).toBe('POST');
    expect(fake.requests[0]?.url).toBe('/api/auth.test');
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('reports invalid_auth as not connected', async () => {
    fake = await startFakeService(() => ({
      status: 200,
      body: { ok: false, error: 'invalid_auth' },
    }));
    const outcome = await checkWithConfig(slack, request(fake.url, '').config, { timeoutMs: 1000 });
    expect(outcome.connected).toBe(false);
    expect(!outcome.connected && outcome.reason).toMatch(/^Slack auth.test failed: invalid_auth/);
  });
});
