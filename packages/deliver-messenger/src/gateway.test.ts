/** One delivery per target through a whole running gateway: webhook in, message out. */
import { afterEach, describe, expect, it } from 'vitest';
import plugin from './index.js';
import {
  postPullRequest,
  startGateway,
  waitForDelivery,
  type RunningGateway,
} from '@webhook-gateway/core/testing';
import {
  startFakeService,
  type FakeAnswer,
  type FakeService,
  type ReceivedRequest,
} from '@webhook-gateway/target-kit/testing';

const ANSWER = 'Reviewed: looks good.';
const PAYLOAD = {
  action: 'opened',
  number: 7,
  chat: { id: 'from-payload' },
  pull_request: { title: 'Fix' },
};

interface Case {
  target: string;
  /** The platform block, without api_base. */
  platform: Record<string, unknown>;
  /** The fake's answer to the credential check and to a send. */
  answers: (request: ReceivedRequest) => FakeAnswer;
  sendPath: string;
  checkPath: string;
  expectSend: (request: ReceivedRequest) => void;
}

const cases: Case[] = [
  {
    target: 'telegram',
    platform: { enabled: true, token: '42:tg', home_channel: '-100home' },
    answers: (r) =>
      r.url.endsWith('/getMe')
        ? {
            status: 200,
            body: {
              ok: true,
              result: { id: 42, is_bot: true, first_name: 'B', username: 'b_bot' },
            },
          }
        : { status: 200, body: { ok: true, result: { message_id: 9 } } },
    sendPath: '/bot42:tg/sendMessage',
    checkPath: '/bot42:tg/getMe',
    expectSend: (r) => expect(r.json).toEqual({ chat_id: 'from-payload', text: ANSWER }),
  },
  {
    target: 'discord',
    platform: { enabled: true, token: 'dc-token', home_channel: '111' },
    answers: (r) =>
      r.url.endsWith('/users/@me')
        ? { status: 200, body: { id: '5', username: 'rev' } }
        : { status: 200, body: { id: '6', content: ANSWER } },
    sendPath: '/api/v10/channels/from-payload/messages',
    checkPath: '/api/v10/users/@me',
    expectSend: (r) => {
      expect(r.headers.authorization).toBe('Bot dc-token');
      expect(r.json).toEqual({ content: ANSWER, allowed_mentions: { parse: [] } });
    },
  },
  {
    target: 'slack',
    platform: { enabled: true, token: 'xoxb-sl', home_channel: 'C1' },
    answers: (r) =>
      r.url.endsWith('/auth.test')
        ? { status: 200, body: { ok: true, user: 'rev', team: 'Acme' } }
        : { status: 200, body: { ok: true, channel: 'from-payload', ts: '1.2' } },
    sendPath: '/api/chat.postMessage',
    checkPath: '/api/auth.test',
    expectSend: (r) => {
      expect(r.headers.authorization).toBe('Bearer xoxb-sl');
      expect(r.json).toEqual({ channel: 'from-payload', text: ANSWER });
    },
  },
  {
    target: 'signal',
    platform: { enabled: true, number: '+15550001111', home_channel: '+15550002222' },
    answers: (r) =>
      r.url === '/v1/about'
        ? { status: 200, body: { versions: ['v1', 'v2'], mode: 'normal', version: '0.92' } }
        : { status: 201, body: { timestamp: '1' } },
    sendPath: '/v2/send',
    checkPath: '/v1/about',
    expectSend: (r) =>
      expect(r.json).toEqual({
        message: ANSWER,
        number: '+15550001111',
        recipients: ['from-payload'],
      }),
  },
];

let fake: FakeService | undefined;
let running: RunningGateway | undefined;
afterEach(async () => {
  await running?.gateway.stop();
  await fake?.close();
  running = undefined;
  fake = undefined;
});

describe('messenger targets through a running gateway', () => {
  for (const testCase of cases) {
    it(`delivers an answer to ${testCase.target} with deliver_extra.chat_id rendered from the payload`, async () => {
      fake = await startFakeService(testCase.answers);
      running = await startGateway({
        plugin,
        answer: ANSWER,
        platforms: { [testCase.target]: { ...testCase.platform, api_base: fake.url } },
        route: {
          events: ['pull_request'],
          deliver: testCase.target,
          deliver_extra: { chat_id: '{chat.id}' },
        },
      });
      const response = await postPullRequest(running.url, PAYLOAD);
      expect(response.status).toBe(202);
      const record = await waitForDelivery(running.store);
      expect(record.lastError).toBeNull();
      expect(record.status).toBe('delivered');
      expect(fake.requests.map((r) => r.url)).toEqual([testCase.checkPath, testCase.sendPath]);
      const send = fake.requests[1];
      expect(send?.method).toBe('POST');
      if (send) testCase.expectSend(send);
    });
  }

  it('retries a delivery the service failed with a 5xx, then delivers it', async () => {
    let sends = 0;
    fake = await startFakeService((r) => {
      if (r.url.endsWith('/auth.test')) return { status: 200, body: { ok: true } };
      sends++;
      return sends === 1
        ? { status: 503, body: 'upstream unavailable' }
        : { status: 200, body: { ok: true } };
    });
    running = await startGateway({
      plugin,
      answer: ANSWER,
      platforms: {
        slack: { enabled: true, token: 'xoxb-sl', home_channel: 'C1', api_base: fake.url },
      },
      route: { deliver: 'slack' },
    });
    await postPullRequest(running.url, PAYLOAD);
    const record = await waitForDelivery(running.store);
    expect(record.status).toBe('delivered');
    expect(record.attempts).toBe(2);
    expect(record.attemptLog[0]?.error).toMatch(/Slack answered HTTP 503/);
  });
});
