import { afterEach, describe, expect, it } from 'vitest';
import { deliverWithConfig, messengerRequest } from './test-support/messenger-request.js';
import { messengerOptionsSchema } from './index.js';
import { SentParts } from '@webhook-gateway/target-kit';
import { EMPTY_ANSWER_TEXT } from './split-message.js';
import { telegram } from './telegram.js';
import { capturingLogger } from '@webhook-gateway/core/testing';
import {
  fakeDelivery,
  startFakeService,
  type FakeService,
} from '@webhook-gateway/target-kit/testing';

const ok = { status: 200, body: { ok: true, result: { message_id: 1 } } };

let fake: FakeService | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const context = () => ({ options: messengerOptionsSchema.parse({}), sentParts: new SentParts() });

function request(options: {
  answer?: string;
  home?: string;
  extra?: Record<string, unknown>;
  enabled?: boolean;
}) {
  return messengerRequest({
    answer: options.answer ?? 'hi',
    platforms: {
      messenger_a: {
        enabled: options.enabled ?? true,
        token: '1:tok',
        api_base: fake?.url ?? 'http://127.0.0.1:9',
        ...(options.home ? { home_channel: options.home } : {}),
      },
    },
    extra: options.extra ?? {},
    log: capturingLogger().log,
  });
}

const chatIds = () => fake?.requests.map((r) => (r.json as { chat_id: string }).chat_id);
const texts = () => fake?.requests.map((r) => (r.json as { text: string }).text);

describe('deliverToMessenger: which chat', () => {
  it('sends to home_channel when the route names no chat', async () => {
    fake = await startFakeService(() => ok);
    await deliverWithConfig(telegram, request({ home: '-100home' }), context());
    expect(chatIds()).toEqual(['-100home']);
  });

  it('lets deliver_extra.chat_id override home_channel', async () => {
    fake = await startFakeService(() => ok);
    await deliverWithConfig(
      telegram,
      request({ home: '-100home', extra: { chat_id: '-100other' } }),
      context(),
    );
    expect(chatIds()).toEqual(['-100other']);
  });

  it('accepts a chat_id written as a YAML number', async () => {
    fake = await startFakeService(() => ok);
    await deliverWithConfig(telegram, request({ extra: { chat_id: -1001234567890 } }), context());
    expect(chatIds()).toEqual(['-1001234567890']);
  });

  it('fails clearly with neither, naming both keys, and sends nothing', async () => {
    fake = await startFakeService(() => ok);
    await expect(deliverWithConfig(telegram, request({}), context())).rejects.toThrow(
      "no chat to deliver to for messenger_a: set the route's deliver_extra.chat_id or platforms.messenger_a.home_channel",
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('rejects a chat_id too large to be exact as a number', async () => {
    await expect(
      deliverWithConfig(telegram, request({ extra: { chat_id: 2 ** 60 } }), context()),
    ).rejects.toThrow(/quote it as a string/);
  });

  it('refuses a platform that is not enabled (a dynamic subscription may name one)', async () => {
    await expect(
      deliverWithConfig(telegram, request({ enabled: false, home: '1' }), context()),
    ).rejects.toThrow('cannot deliver to messenger_a: platforms.messenger_a.enabled is not true');
  });
});

describe('deliverToMessenger: what is sent', () => {
  it('delivers SKIP as it is and an empty answer as a placeholder', async () => {
    fake = await startFakeService(() => ok);
    await deliverWithConfig(telegram, request({ home: '1', answer: 'SKIP' }), context());
    await deliverWithConfig(telegram, request({ home: '1', answer: '' }), context());
    expect(texts()).toEqual(['SKIP', EMPTY_ANSWER_TEXT]);
  });

  it('resumes a split answer at the part that failed when the worker retries', async () => {
    fake = await startFakeService((_, index) =>
      index === 1
        ? {
            status: 500,
            body: { ok: false, error_code: 500, description: 'Internal Server Error' },
          }
        : ok,
    );
    const answer = ['a'.repeat(4000), 'b'.repeat(4000), 'c'.repeat(4000)].join('\n\n');
    const shared = context();
    const delivery = fakeDelivery();
    const attempt = () =>
      deliverWithConfig(telegram, { ...request({ home: '1', answer }), delivery }, shared);
    await expect(attempt()).rejects.toThrow(
      /sending part 2 of 3 to chat 1 failed: Telegram answered HTTP 500/,
    );
    await attempt();
    expect(texts()?.map((t) => t[0])).toEqual(['a', 'b', 'b', 'c']);
  });
});
