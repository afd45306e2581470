import { parseConfig } from '@webhook-gateway/core';
import { createHooks } from '@webhook-gateway/core/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTwilio } from './connection-check.js';
import plugin, { smsSettingsSchema } from './index.js';
import { capturingLogger } from '@webhook-gateway/core/testing';
import {
  startFakeService,
  type FakeAnswer,
  type FakeService,
} from '@webhook-gateway/target-kit/testing';

const SID = 'AC00000000000000000000000000000001';
const AUTH_TOKEN = 'the-auth-token';

let fake: FakeService | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** `platforms.sms` as the plugin's setup receives it. */
function settings(apiBase: string, enabled = true) {
  return smsSettingsSchema.parse({
    enabled,
    account_sid: SID,
    auth_token: AUTH_TOKEN,
    from: '+15550003333',
    home_number: '+15550004444',
    api_base: apiBase,
  });
}

async function startWith(answer: FakeAnswer, enabled = true) {
  const service = await startFakeService(() => answer);
  fake = service;
  const capture = capturingLogger();
  const instance = await plugin.setup(
    {
      hooks: createHooks(),
      log: capture.log,
      config: parseConfig({}, {}),
      home: '/tmp',
      serving: true,
      settings: () => ({ sms: settings(service.url, enabled) }),
      currentConfig: (): never => {
        throw new Error('not read in this test');
      },
      settingsOf: (): never => {
        throw new Error('no dependencies');
      },
    },
    plugin.options!.parse({}),
  );
  await expect(instance?.start?.()).resolves.toBeUndefined();
  await instance?.stop?.();
  return capture;
}

describe('start-time Twilio check', () => {
  it('fetches the account with basic auth and logs connected with its name', async () => {
    const capture = await startWith({
      status: 200,
      body: { sid: SID, friendly_name: 'Acme Alerts', status: 'active', type: 'Full' },
    });
    expect(fake?.requests[0]?.method).toBe('GET');
    expect(fake?.requests[0]?.url).toBe(`/2010-04-01/Accounts/${SID}.json`);
    expect(fake?.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${SID}:${AUTH_TOKEN}`).toString('base64')}`,
    );
    expect(capture.lines).toEqual([
      {
        level: 'info',
        fields: { platform: 'sms', identity: 'Acme Alerts' },
        message: 'sms (Twilio) connected as Acme Alerts',
      },
    ]);
  });

  it('warns "not connected" with Twilio\'s reason for wrong credentials, without the token', async () => {
    const capture = await startWith({
      status: 401,
      body: {
        code: 20003,
        detail: 'Your AccountSid or AuthToken was incorrect.',
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      },
    });
    expect(capture.lines).toHaveLength(1);
    expect(capture.lines[0]?.level).toBe('warn');
    expect(capture.lines[0]?.message).toBe(
      'sms (Twilio) not connected: Twilio rejected platforms.sms.account_sid / auth_token: Authenticate (error 20003, https://www.twilio.com/docs/errors/20003)',
    );
    expect(capture.text()).not.toContain(AUTH_TOKEN);
  });

  it('reports a suspended account as not connected', async () => {
    fake = await startFakeService(() => ({
      status: 200,
      body: { sid: SID, friendly_name: 'A', status: 'suspended' },
    }));
    expect(await checkTwilio(settings(fake.url), { timeoutMs: 1000 })).toEqual({
      connected: false,
      reason: `the Twilio account ${SID} is suspended`,
    });
  });

  it('does not check when sms is not enabled', async () => {
    const capture = await startWith({ status: 200, body: {} }, false);
    expect(fake?.requests).toHaveLength(0);
    expect(capture.lines).toHaveLength(0);
  });
});
