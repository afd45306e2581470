import { afterEach, describe, expect, it } from 'vitest';
import {
  checkWithConfig,
  deliverWithConfig,
  messengerRequest,
} from './test-support/messenger-request.js';
import { messengerOptionsSchema } from './index.js';
import { SentParts } from '@webhook-gateway/target-kit';
import { signal } from './signal.js';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { startFakeService, type FakeService } from '@webhook-gateway/target-kit/testing';

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
      signal: {
        enabled: true,
        number: '+15550001111',
        home_channel: '+15550002222',
        api_base: apiBase,
      },
    },
    extra,
    log: capturingLogger().log,
  });
}

describe('messenger_d (signal-cli REST API)', () => {
  it('posts {message, number, recipients} to /v2/send', async () => {
    fake = await startFakeService(() => ({ status: 201, body: { timestamp: '1700000000000' } }));
    await deliverWithConfig(
      signal,
      request(fake.url, 'All checks pass', { chat_id: 'group.abc=' }),
      context(),
    );
    const [received] = fake.requests;
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/v2/send');
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.json).toEqual({
      message: 'All checks pass',
      number: '+15550001111',
      recipients: ['group.abc='],
    });
  });

  it("throws the REST API's error on a 400", async () => {
    fake = await startFakeService(() => ({
      status: 400,
      body: { error: 'Failed to send message: Unregistered user "+15550002222"' },
    }));
    await expect(deliverWithConfig(signal, request(fake.url, 'hi'), context())).rejects.toThrow(
      'messenger_d (signal-cli REST API): sending to recipient +15550002222 failed: signal-cli REST API refused the message: Failed to send message: Unregistered user "+15550002222" (HTTP 400)',
    );
  });

  it('checks the service with GET /v1/about', async () => {
    fake = await startFakeService(() => ({
      status: 200,
      body: {
        versions: ['v1', 'v2'],
        build: 2,
        mode: 'json-rpc',
        version: '0.92',
        capabilities: { 'v2/send': ['quotes'] },
      },
    }));
    const outcome = await checkWithConfig(signal, request(fake.url, '').config, {
      timeoutMs: 1000,
    });
    expect(outcome).toEqual({
      connected: true,
      identity: 'signal-cli REST API (version 0.92, json-rpc mode)',
    });
    expect(fake.requests[0]?.method).toBe('GET');
    expect(fake.requests[0]?.url).toBe('/v1/about');
  });

  it('reports a service that does not answer in time as not connected', async () => {
    fake = await startFakeService(() => ({ status: 200, body: {}, delayMs: 5000 }));
    const outcome = await checkWithConfig(signal, request(fake.url, '').config, { timeoutMs: 200 });
    expect(outcome).toEqual({
      connected: false,
      reason: `signal-cli REST API (${fake.url}) did not answer within 0.2 s`,
    });
  });
});
