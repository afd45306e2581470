import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { schemeProbe, type SchemeProbe } from '@webhook-gateway/core/testing';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { signLinearBody, verifyLinearRequest } from './verify.js';

const recorded = fs.readFileSync(
  new URL('../../../test/fixtures/linear/issue_create.json', import.meta.url),
  'utf8',
);
const RECORDED_AT = 1681207187330;

/** The recorded payload, bytes unchanged but for its `webhookTimestamp`. */
function issueCreatedAt(ms: number): Buffer {
  return Buffer.from(recorded.replace(String(RECORDED_AT), String(ms)));
}

/** Linear's signature, written out with node's crypto (not the code under test). */
function independent(bytes: Buffer | string, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(bytes).digest('hex');
}

describe('verifyLinearRequest', () => {
  it('accepts the recorded Issue payload at the time it was sent', () => {
    const body = Buffer.from(recorded);
    expect(signLinearBody(body, 'lin_wh_secret')).toBe(independent(body, 'lin_wh_secret'));
    expect(
      verifyLinearRequest(
        body,
        independent(body, 'lin_wh_secret'),
        ['lin_wh_secret'],
        RECORDED_AT,
        60,
      ),
    ).toEqual({ ok: true });
  });

  it('refuses the same signed bytes more than 60 s later or earlier', () => {
    const body = Buffer.from(recorded);
    const signature = independent(body, 's');
    expect(verifyLinearRequest(body, signature, ['s'], RECORDED_AT + 60_000, 60).ok).toBe(true);
    expect(verifyLinearRequest(body, signature, ['s'], RECORDED_AT + 60_001, 60).ok).toBe(false);
    expect(verifyLinearRequest(body, signature, ['s'], RECORDED_AT - 60_001, 60).ok).toBe(false);
  });

  it('refuses a signed body whose webhookTimestamp is missing, a string, or not JSON', () => {
    const now = Date.now();
    for (const text of [
      '{"type":"Issue"}',
      `{"webhookTimestamp":"${now}"}`,
      `{"webhookTimestamp":${now}.5}`,
      `[${now}]`,
      'not json',
    ]) {
      expect(
        verifyLinearRequest(Buffer.from(text), independent(text, 's'), ['s'], now, 60),
      ).toMatchObject({
        ok: false,
      });
    }
  });

  it('accepts any secret of a rotation; refuses other secrets, prefixes, uppercase, non-ASCII', () => {
    const now = Date.now();
    const body = issueCreatedAt(now);
    expect(verifyLinearRequest(body, independent(body, 'b'), ['a', 'b'], now, 60).ok).toBe(true);
    const hex = independent(body, 'a');
    for (const bad of [
      independent(body, 'c'),
      `sha256=${hex}`,
      hex.toUpperCase(),
      hex.slice(2),
      `${hex.slice(1)}\u00ff`,
    ]) {
      expect(verifyLinearRequest(body, bad, ['a'], now, 60).ok).toBe(false);
    }
  });

  it('never throws on arbitrary headers and bodies (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.uint8Array({ maxLength: 64 }), (header, bytes) => {
        expect(verifyLinearRequest(Buffer.from(bytes), header, ['s'], Date.now(), 60).ok).toBe(
          false,
        );
      }),
    );
  });
});

describe('the linear scheme', () => {
  let probe: SchemeProbe;
  beforeAll(async () => {
    probe = await schemeProbe(plugin);
  });

  it('takes the event from Linear-Event and the delivery id from Linear-Delivery', async () => {
    const body = issueCreatedAt(Date.now());
    const verdict = await probe({
      headers: {
        'linear-signature': independent(body, 's'),
        'linear-event': 'Issue',
        'linear-delivery': '234d1a4e-b617-4388-90fe-adc3633d6b72',
      },
      body,
      secrets: ['s'],
    });
    expect(verdict).toEqual({
      ok: true,
      scheme: 'linear',
      event: 'Issue',
      deliveryId: '234d1a4e-b617-4388-90fe-adc3633d6b72',
    });
  });

  it('refuses a request with its signature header but a bad value', async () => {
    const body = issueCreatedAt(Date.now());
    expect(
      await probe({ headers: { 'linear-signature': 'x' }, body, secrets: ['s'] }),
    ).toMatchObject({ ok: false, scheme: 'linear' });
  });

  it('leaves requests without Linear-Signature to other schemes', async () => {
    const body = issueCreatedAt(Date.now());
    expect(await probe({ headers: { 'linear-event': 'Issue' }, body, secrets: ['s'] })).toBe(
      undefined,
    );
  });
});
