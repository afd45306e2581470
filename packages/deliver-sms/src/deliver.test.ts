import { afterEach, describe, expect, it } from 'vitest';
import { deliverSms } from './deliver.js';
import { smsOptionsSchema, smsSettingsSchema } from './index.js';
import { SentParts } from '@webhook-gateway/target-kit';
import { EMPTY_ANSWER_TEXT } from './split-message.js';
import { capturingLogger } from '@webhook-gateway/core/testing';
import {
  deliverRequest,
  fakeDelivery,
  startFakeService,
  type FakeService,
} from '@webhook-gateway/target-kit/testing';

const SID = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'twilio-auth-token-secret';
const queued = (n = 1) => ({
  status: 201,
  body: { sid: `SM${n}`, status: 'queued', to: '+15550004444', from: '+15550003333', body: 'x' },
});

let fake: FakeService | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const context = (options: Record<string, unknown> = {}) => ({
  options: smsOptionsSchema.parse(options),
  sentParts: new SentParts(),
});

interface Case {
  answer?: string;
  extra?: Record<string, unknown>;
  home?: string | null;
  enabled?: boolean;
}

function request(options: Case = {}) {
  return deliverRequest({
    answer: options.answer ?? 'Reviewed PR #7',
    extra: options.extra ?? {},
    log: capturingLogger().log,
  });
}

/** `platforms.sms` as the plugin's setup receives it. */
function settings(options: Case = {}) {
  return smsSettingsSchema.parse({
    enabled: options.enabled ?? true,
    account_sid: SID,
    auth_token: AUTH_TOKEN,
    from: '+15550003333',
    ...(options.home === null ? {} : { home_number: options.home ?? '+15550004444' }),
    api_base: fake?.url ?? 'http://127.0.0.1:9',
  });
}

/** Texts one answer the way the plugin's deliver tap does. */
function send(options: Case = {}, shared = context()) {
  return deliverSms(request(options), settings(options), shared);
}

const form = (i: number) => new URLSearchParams(fake?.requests[i]?.body);

describe('sms (Twilio Messages API)', () => {
  it('posts To, From, Body as a form to Messages.json with basic auth', async () => {
    fake = await startFakeService(() => queued());
    await send();
    const [received] = fake.requests;
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(received?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(received?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${SID}:${AUTH_TOKEN}`).toString('base64')}`,
    );
    expect(Object.fromEntries(form(0))).toEqual({
      To: '+15550004444',
      From: '+15550003333',
      Body: 'Reviewed PR #7',
    });
  });

  it('lets deliver_extra.to override home_number', async () => {
    fake = await startFakeService(() => queued());
    await send({ extra: { to: '+15550009999' } });
    expect(form(0).get('To')).toBe('+15550009999');
  });

  it('takes the chat_id of a dynamic subscription when there is no deliver_extra.to', async () => {
    fake = await startFakeService(() => queued());
    await send({ extra: { chat_id: '+15550008888' } });
    await send({ extra: { chat_id: '+15550008888', to: '+15550009999' } });
    expect([form(0).get('To'), form(1).get('To')]).toEqual(['+15550008888', '+15550009999']);
  });

  it('fails clearly with neither deliver_extra.to nor home_number', async () => {
    fake = await startFakeService(() => queued());
    await expect(send({ home: null })).rejects.toThrow(
      "no number to text: set the route's deliver_extra.to or platforms.sms.home_number",
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('explains a deliver_extra.to that YAML read as a number', async () => {
    await expect(send({ extra: { to: 15550009999 } })).rejects.toThrow(
      /quote it in the config \("\+15550009999"\)/,
    );
  });

  it('splits an answer over 1,600 characters into numbered texts sent in order', async () => {
    fake = await startFakeService((_, i) => queued(i));
    const answer = ['a'.repeat(1500), 'b'.repeat(1500), 'c'.repeat(200)].join('\n\n');
    await send({ answer });
    const bodies = fake.requests.map((_, i) => form(i).get('Body') ?? '');
    expect(bodies).toEqual([
      `(1/3) ${'a'.repeat(1500)}`,
      `(2/3) ${'b'.repeat(1500)}`,
      `(3/3) ${'c'.repeat(200)}`,
    ]);
  });

  it('texts a placeholder for an empty answer', async () => {
    fake = await startFakeService(() => queued());
    await send({ answer: '' });
    expect(form(0).get('Body')).toBe(EMPTY_ANSWER_TEXT);
  });

  it("throws Twilio's code and message, never the auth token", async () => {
    fake = await startFakeService(() => ({
      status: 400,
      body: {
        code: 21211,
        message: "The 'To' number +1555 is not a valid phone number.",
        more_info: 'https://www.twilio.com/docs/errors/21211',
        status: 400,
      },
    }));
    const error = (await send({ extra: { to: '+1555' } }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      "sms (Twilio): texting to +1555 failed: Twilio refused the message: The 'To' number +1555 is not a valid phone number. (error 21211, https://www.twilio.com/docs/errors/21211)",
    );
    expect(error.message).not.toContain(AUTH_TOKEN);
  });

  it('waits Retry-After after a 429, then sends again', async () => {
    fake = await startFakeService((_, index) =>
      index === 0
        ? {
            status: 429,
            headers: { 'retry-after': '1' },
            body: {
              code: 20429,
              message: 'Too Many Requests',
              more_info: 'https://www.twilio.com/docs/errors/20429',
              status: 429,
            },
          }
        : queued(),
    );
    const started = Date.now();
    await send();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up after the allowed number of 429 retries', async () => {
    fake = await startFakeService(() => ({
      status: 429,
      headers: { 'retry-after': '1' },
      body: { code: 20429, message: 'Too Many Requests', status: 429 },
    }));
    await expect(
      send({}, context({ rate_limit_retries: 1, max_retry_after_s: 0.05 })),
    ).rejects.toThrow(/Twilio is still rate limiting after 1 retries/);
    expect(fake.requests).toHaveLength(2);
  });

  it('throws on a 5xx so the worker retries, and resumes after the texts already sent', async () => {
    fake = await startFakeService((_, index) =>
      index === 1 ? { status: 503, body: 'Service Unavailable' } : queued(),
    );
    const answer = ['a'.repeat(1500), 'b'.repeat(1500)].join('\n\n');
    const shared = context();
    const delivery = fakeDelivery();
    const attempt = () => deliverSms({ ...request({ answer }), delivery }, settings(), shared);
    await expect(attempt()).rejects.toThrow(
      /texting part 2 of 2 to \+15550004444 failed: Twilio answered HTTP 503/,
    );
    await attempt();
    expect(fake.requests.map((_, i) => form(i).get('Body')?.slice(0, 7))).toEqual([
      '(1/2) a',
      '(2/2) b',
      '(2/2) b',
    ]);
  });

  it('refuses to text when sms is not enabled (a dynamic subscription may name it)', async () => {
    await expect(send({ enabled: false })).rejects.toThrow(
      'cannot deliver to sms: platforms.sms.enabled is not true',
    );
  });
});
