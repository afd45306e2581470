/** A delivery through a whole running gateway: webhook in, text out. */
import { afterEach, describe, expect, it } from 'vitest';
import plugin from './index.js';
import {
  postPullRequest,
  startGateway,
  waitForDelivery,
  type RunningGateway,
} from '@webhook-gateway/core/testing';
import { startFakeService, type FakeService } from '@webhook-gateway/target-kit/testing';

const SID = 'AC11111111111111111111111111111111';

let fake: FakeService | undefined;
let running: RunningGateway | undefined;
afterEach(async () => {
  await running?.gateway.stop();
  await fake?.close();
  running = undefined;
  fake = undefined;
});

describe('sms through a running gateway', () => {
  it('texts the answer to the number rendered from the payload', async () => {
    fake = await startFakeService((r) =>
      r.method === 'GET'
        ? { status: 200, body: { sid: SID, friendly_name: 'Acme', status: 'active' } }
        : { status: 201, body: { sid: 'SM1', status: 'queued' } },
    );
    running = await startGateway({
      plugin,
      answer: 'PR #7 reviewed: 2 comments.',
      platforms: {
        sms: {
          enabled: true,
          account_sid: SID,
          auth_token: 'tok',
          from: '+15550003333',
          home_number: '+15550004444',
          api_base: fake.url,
        },
      },
      route: { events: ['pull_request'], deliver: 'sms', deliver_extra: { to: '{oncall.phone}' } },
    });
    const response = await postPullRequest(running.url, {
      action: 'opened',
      number: 7,
      oncall: { phone: '+15550007777' },
    });
    expect(response.status).toBe(202);
    const record = await waitForDelivery(running.store);
    expect(record.lastError).toBeNull();
    expect(record.status).toBe('delivered');
    expect(fake.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET /2010-04-01/Accounts/${SID}.json`,
      `POST /2010-04-01/Accounts/${SID}/Messages.json`,
    ]);
    expect(Object.fromEntries(new URLSearchParams(fake.requests[1]?.body))).toEqual({
      To: '+15550007777',
      From: '+15550003333',
      Body: 'PR #7 reviewed: 2 comments.',
    });
  });

  it('texts line comments after the answer as plain text, a suggestion included', async () => {
    fake = await startFakeService((r) =>
      r.method === 'GET'
        ? { status: 200, body: { sid: SID, friendly_name: 'Acme', status: 'active' } }
        : { status: 201, body: { sid: 'SM1', status: 'queued' } },
    );
    running = await startGateway({
      plugin,
      answer: 'One remark.',
      lineComments: [
        { path: 'src/a.ts', start_line: 3, line: 4, body: 'simpler', suggestion: 'return a;' },
      ],
      platforms: {
        sms: {
          enabled: true,
          account_sid: SID,
          auth_token: 'tok',
          from: '+15550003333',
          home_number: '+15550004444',
          api_base: fake.url,
        },
      },
      route: { events: ['pull_request'], deliver: 'sms', deliver_extra: { to: '+15550007777' } },
    });
    await postPullRequest(running.url, { action: 'opened', number: 7 });
    const record = await waitForDelivery(running.store);
    expect(record.lastError).toBeNull();
    expect(new URLSearchParams(fake.requests[1]?.body).get('Body')).toBe(
      'One remark.\n\nsrc/a.ts:3-4 — simpler\nSuggested change:\n```\nreturn a;\n```',
    );
  });
});
