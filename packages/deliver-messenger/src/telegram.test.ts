import { afterEach, describe, expect, it } from 'vitest';
import {
  checkWithConfig,
  deliverWithConfig,
  messengerRequest,
} from './test-support/messenger-request.js';
import { messengerOptionsSchema } from './index.js';
import { SentParts } from '@webhook-gateway/target-kit';
import { telegram } from './telegram.js';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { startFakeService, type FakeService } from '@webhook-gateway/target-kit/testing';

const TOKEN = '123456:TEST-telegram-token';
const ok = { status: 200, body: { ok: true, result: { message_id: 1, chat: { id: -100123 } } } };

let fake: FakeService | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function context(options: Record<string, unknown> = {}) {
  return { options: messengerOptionsSchema.parse(options), sentParts: new SentParts() };
}

function platforms(apiBase: string, extra: Record<string, unknown> = {}) {
  return {
    telegram: { enabled: true, token: TOKEN, home_channel: '-100123', api_base: apiBase, ...extra },
  };
}

describe('messenger_a (Telegram Bot API)', () => {
  it('answers in a forum topic: deliver_extra.thread_id as message_thread_id (Hermes)', async () => {
    fake = await startFakeService(() => ok);
    const { log } = capturingLogger();
    await deliverWithConfig(
      telegram,
      messengerRequest({
        answer: 'LGTM',
        platforms: platforms(fake.url),
        extra: { thread_id: '999' },
        log,
      }),
      context(),
    );
    expect(fake.requests[0]?.json).toEqual({
      chat_id: '-100123',
      text: 'LGTM',
      message_thread_id: 999,
    });
  });

  it('posts {chat_id, text} as JSON to /bot<token>/sendMessage', async () => {
    fake = await startFakeService(() => ok);
    const { log } = capturingLogger();
    await deliverWithConfig(
      telegram,
      messengerRequest({ answer: 'LGTM', platforms: platforms(fake.url), log }),
      context(),
    );
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`/bot${TOKEN}/sendMessage`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.json).toEqual({ chat_id: '-100123', text: 'LGTM' });
  });

  it('splits an answer over 4,096 characters into messages sent in order', async () => {
    fake = await startFakeService(() => ok);
    const paragraphs = Array.from({ length: 5 }, (_, i) => `${i}`.repeat(2000));
    const { log } = capturingLogger();
    await deliverWithConfig(
      telegram,
      messengerRequest({ answer: paragraphs.join('\n\n'), platforms: platforms(fake.url), log }),
      context(),
    );
    const texts = fake.requests.map((r) => (r.json as { text: string }).text);
    expect(texts).toEqual([
      `${paragraphs[0]}\n\n${paragraphs[1]}`,
      `${paragraphs[2]}\n\n${paragraphs[3]}`,
      paragraphs[4],
    ]);
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(4096);
  });

  it('waits parameters.retry_after after a 429, then sends again', async () => {
    fake = await startFakeService((_, index) =>
      index === 0
        ? {
            status: 429,
            body: {
              ok: false,
              error_code: 429,
              description: 'Too Many Requests: retry after 1',
              parameters: { retry_after: 1 },
            },
          }
        : ok,
    );
    const capture = capturingLogger();
    const started = Date.now();
    await deliverWithConfig(
      telegram,
      messengerRequest({ answer: 'hi', platforms: platforms(fake.url), log: capture.log }),
      context(),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests).toHaveLength(2);
    expect(capture.lines.some((l) => l.level === 'warn' && l.fields.retry_after_ms === 1000)).toBe(
      true,
    );
  });

  it('gives up after the allowed number of 429 retries', async () => {
    fake = await startFakeService(() => ({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 1',
        parameters: { retry_after: 1 },
      },
    }));
    const { log } = capturingLogger();
    const run = deliverWithConfig(
      telegram,
      messengerRequest({ answer: 'hi', platforms: platforms(fake.url), log }),
      context({ rate_limit_retries: 2, max_retry_after_s: 0.05 }),
    );
    await expect(run).rejects.toThrow(/Telegram is still rate limiting after 2 retries/);
    expect(fake.requests).toHaveLength(3);
  });

  it("throws Telegram's own description on a 4xx, never the token", async () => {
    fake = await startFakeService(() => ({
      status: 400,
      body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
    }));
    const { log } = capturingLogger();
    const run = deliverWithConfig(
      telegram,
      messengerRequest({ answer: 'hi', platforms: platforms(fake.url), log }),
      context(),
    );
    const error = (await run.catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      'messenger_a (Telegram): sending to chat -100123 failed: Telegram refused the message: Bad Request: chat not found (error 400)',
    );
    expect(error.message).not.toContain(TOKEN);
  });

  it('throws on a 5xx so the worker retries', async () => {
    fake = await startFakeService(() => ({ status: 502, body: '<html>Bad Gateway</html>' }));
    const { log } = capturingLogger();
    const run = deliverWithConfig(
      telegram,
      messengerRequest({ answer: 'hi', platforms: platforms(fake.url), log }),
      context(),
    );
    await expect(run).rejects.toThrow(/Telegram answered HTTP 502 .*will be retried/);
  });

  it('keeps the token out of the error when the service cannot be reached', async () => {
    fake = await startFakeService(() => ok);
    const apiBase = fake.url;
    await fake.close();
    fake = undefined;
    const { log } = capturingLogger();
    const error = (await deliverWithConfig(
      telegram,
      messengerRequest({ answer: 'hi', platforms: platforms(apiBase), log }),
      context(),
    ).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      /could not reach Telegram at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/,
    );
    expect(error.message).not.toContain(TOKEN);
  });

  it('checks the token with getMe and reports the bot name', async () => {
    fake = await startFakeService(() => ({
      status: 200,
      body: {
        ok: true,
        result: { id: 42, is_bot: true, first_name: 'Reviewer', username: 'review_bot' },
      },
    }));
    const { config } = messengerRequest({
      answer: '',
      platforms: platforms(fake.url),
      log: capturingLogger().log,
    });
    expect(await checkWithConfig(telegram, config, { timeoutMs: 1000 })).toEqual({
      connected: true,
      identity: '@review_bot',
    });
    expect(fake.requests[0]?.method).toBe('GET');
    expect(fake.requests[0]?.url).toBe(`/bot${TOKEN}/getMe`);
  });

  it('reports an unknown token as not connected', async () => {
    fake = await startFakeService(() => ({
      status: 401,
      body: { ok: false, error_code: 401, description: 'Unauthorized' },
    }));
    const { config } = messengerRequest({
      answer: '',
      platforms: platforms(fake.url),
      log: capturingLogger().log,
    });
    const outcome = await checkWithConfig(telegram, config, { timeoutMs: 1000 });
    expect(outcome).toEqual({
      connected: false,
      reason: 'Telegram rejected the bot token: Unauthorized (error 401)',
    });
  });
});
