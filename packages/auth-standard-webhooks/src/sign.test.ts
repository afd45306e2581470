/**
 * The signer the outbound sender uses, checked against this package's verifier and against the
 * Standard Webhooks reference library (`standardwebhooks`, the spec's own JavaScript code).
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { standardWebhookHeaders, verifyStandardWebhook } from './verify.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

function verify(headers: Record<string, string>, body: string, secrets: string[], nowMs: number) {
  return verifyStandardWebhook(
    {
      id: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'] ?? '',
      body: Buffer.from(body),
    },
    secrets,
    nowMs,
    300,
  );
}

describe('standardWebhookHeaders', () => {
  it('signs the spec test vector as the reference does', () => {
    // The standard-webhooks repository's fixture: this id, time and body give this signature.
    const headers = standardWebhookHeaders(
      SECRET,
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330_000,
      '{"test": 2432232314}',
    );
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('writes the timestamp in whole Unix seconds', () => {
    expect(standardWebhookHeaders(SECRET, 'msg_1', 1_700_000_000_999, '{}')).toMatchObject({
      'webhook-timestamp': '1700000000',
    });
  });

  it('makes headers the verifier accepts, for any whsec_ secret, id and body (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 24, maxLength: 64 }),
        fc.stringMatching(/^[A-Za-z0-9_.:-]{1,60}$/),
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        (key, id, body) => {
          const secret = `whsec_${Buffer.from(key).toString('base64')}`;
          const now = Date.now();
          const headers = standardWebhookHeaders(secret, id, now, body);
          expect(verify({ ...headers }, body, [secret], now)).toEqual({ ok: true });
          // Another secret, or a body changed by one character, is refused.
          const other = `whsec_${randomBytes(32).toString('base64')}`;
          expect(verify({ ...headers }, body, [other], now).ok).toBe(false);
          expect(verify({ ...headers }, `${body} `, [secret], now).ok).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is accepted by the reference library, and accepts what it signs', () => {
    const reference = new Webhook(SECRET);
    const body = JSON.stringify({ type: 'delivery.delivered', data: { route: 'reviews' } });
    const now = Date.now();
    const ours = standardWebhookHeaders(SECRET, 'msg_ours', now, body);
    expect(reference.verify(body, { ...ours })).toEqual(JSON.parse(body));
    const theirs = reference.sign('msg_theirs', new Date(now), body);
    const headers = {
      'webhook-id': 'msg_theirs',
      'webhook-timestamp': String(Math.floor(now / 1000)),
      'webhook-signature': theirs,
    };
    expect(verify(headers, body, [SECRET], now)).toEqual({ ok: true });
  });

  it('signs raw body bytes as given (a Buffer and its UTF-8 text agree)', () => {
    const body = '{"answer":"Grüße ✓"}';
    const now = Date.now();
    expect(standardWebhookHeaders(SECRET, 'msg_2', now, Buffer.from(body))).toEqual(
      standardWebhookHeaders(SECRET, 'msg_2', now, body),
    );
  });
});
