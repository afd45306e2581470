import { afterEach, describe, expect, it } from 'vitest';
import {
  checkWithConfig,
  deliverWithConfig,
  messengerRequest,
} from './test-support/messenger-request.js';
import { discord } from './discord.js';
import { messengerOptionsSchema } from './index.js';
import { SentParts } from '@webhook-gateway/target-kit';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { startFakeService, type FakeService } from '@webhook-gateway/target-kit/testing';

const TOKEN = 'MTIz.discord-test-token';
const CHANNEL = '1234567890123456789';
const created = { status: 200, body: { id: '1', channel_id: CHANNEL, content: 'x' } };

let fake: FakeService | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const context = (options: Record<string, unknown> = {}) => ({
  options: messengerOptionsSchema.parse(options),
  sentParts: new SentParts(),
});

function request(apiBase: string, answer: string, extra: Record<string, unknown> = {}) {
  return messengerRequest({
    answer,
    platforms: {
      discord: { enabled: true, token: TOKEN, home_channel: CHANNEL, api_base: apiBase },
    },
    extra,
    log: capturingLogger().log,
  });
}

describe('messenger_b (Discord)', () => {
  it('answers in a thread: deliver_extra.thread_id is the channel posted to', async () => {
    fake = await startFakeService(() => created);
    const threaded = request(fake.url, 'Looks good', { thread_id: '987654321' });
    await deliverWithConfig(discord, threaded, context());
    expect(fake.requests[0]?.url).toBe('/api/v10/channels/987654321/messages');
  });

  it('posts {content} with a Bot authorization to /api/v10/channels/<id>/messages', async () => {
    fake = await startFakeService(() => created);
    await deliverWithConfig(discord, request(fake.url, 'Looks good'), context());
    const [received] = fake.requests;
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe(`/api/v10/channels/${CHANNEL}/messages`);
    expect(received?.headers.authorization).toBe(`Bot ${TOKEN}`);
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers['user-agent']).toMatch(/^DiscordBot \(/);
    expect(received?.json).toEqual({ content: 'Looks good', allowed_mentions: { parse: [] } });
  });

  it('splits at 2,000 characters on line boundaries', async () => {
    fake = await startFakeService(() => created);
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i} `.padEnd(99, '.'));
    await deliverWithConfig(discord, request(fake.url, lines.join('\n')), context());
    const contents = fake.requests.map((r) => (r.json as { content: string }).content);
    expect(contents).toHaveLength(2);
    expect(contents[0]).toBe(lines.slice(0, 20).join('\n'));
    expect(contents[1]).toBe(lines.slice(20).join('\n'));
  });

  it('honours retry_after of a 429 and sends again', async () => {
    fake = await startFakeService((_, index) =>
      index === 0
        ? {
            status: 429,
            headers: { 'retry-after': '1', 'x-ratelimit-scope': 'user' },
            body: { message: 'You are being rate limited.', retry_after: 0.2, global: false },
          }
        : created,
    );
    const started = Date.now();
    await deliverWithConfig(discord, request(fake.url, 'hi'), context());
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(900); // the body's precise 0.2 s, not the header's rounded 1 s
    expect(fake.requests).toHaveLength(2);
  });

  it("throws Discord's message on a 4xx", async () => {
    fake = await startFakeService(() => ({
      status: 403,
      body: { message: 'Missing Access', code: 50001 },
    }));
    await expect(deliverWithConfig(discord, request(fake.url, 'hi'), context())).rejects.toThrow(
      `messenger_b (Discord): sending to channel ${CHANNEL} failed: Discord refused the message: Missing Access (HTTP 403, code 50001)`,
    );
  });

  it('throws on a 5xx so the worker retries', async () => {
    fake = await startFakeService(() => ({
      status: 503,
      body: { message: 'upstream connect error' },
    }));
    await expect(deliverWithConfig(discord, request(fake.url, 'hi'), context())).rejects.toThrow(
      /HTTP 503/,
    );
  });

  it('checks the token with GET /api/v10/users/@me', async () => {
    fake = await startFakeService(() => ({
      status: 200,
      body: { id: '80351110224678912', username: 'review-bot', discriminator: '0', bot: true },
    }));
    const outcome = await checkWithConfig(discord, request(fake.url, '').config, {
      timeoutMs: 1000,
    });
    expect(outcome).toEqual({ connected: true, identity: 'review-bot' });
    expect(fake.requests[0]?.method).toBe('GET');
    expect(fake.requests[0]?.url).toBe('/api/v10/users/@me');
    expect(fake.requests[0]?.headers.authorization).toBe(`Bot ${TOKEN}`);
  });

  it('reports a rejected token as not connected', async () => {
    fake = await startFakeService(() => ({
      status: 401,
      body: { message: '401: Unauthorized', code: 0 },
    }));
    const outcome = await checkWithConfig(discord, request(fake.url, '').config, {
      timeoutMs: 1000,
    });
    expect(outcome).toEqual({
      connected: false,
      reason: 'Discord rejected the bot token: 401: Unauthorized (HTTP 401)',
    });
  });
});
