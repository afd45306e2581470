import { createHmac } from 'node:crypto';
import { schemeProbe, type SchemeProbe } from '@webhook-gateway/core/testing';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { signStandardWebhook, standardWebhookVerifyKeys, verifyStandardWebhook } from './verify.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const nowS = () => Math.floor(Date.now() / 1000);

/** The spec's signature, written out here with node's crypto (not the code under test). */
function independentSignature(secret: string, id: string, ts: string, body: string): string {
  const key = secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
  return `v1,${createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')}`;
}

describe('verifyStandardWebhook', () => {
  it('accepts the spec repository test vector (whsec_ key, fixed id, timestamp and body)', () => {
    // From standard-webhooks/standard-webhooks libraries' "sign" tests (fixtures README).
    const at = 1614265330;
    const check = verifyStandardWebhook(
      {
        id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        timestamp: String(at),
        signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
        body: Buffer.from('{"test": 2432232314}'),
      },
      [SECRET],
      at * 1000,
      300,
    );
    expect(check).toEqual({ ok: true });
  });

  it('signs as the independent computation does, for whsec_ and plain secrets', () => {
    for (const secret of [SECRET, 'plain-shared-secret']) {
      expect(signStandardWebhook(secret, 'msg_1', '1700000000', '{"a":1}')).toBe(
        independentSignature(secret, 'msg_1', '1700000000', '{"a":1}'),
      );
    }
  });

  it('verifies a secret without whsec_ under both readings: base64-decoded and its UTF-8 bytes', () => {
    // The spec vector again, its secret copied without the prefix: the reference libraries'
    // reading (base64-decoded) must pass.
    const at = 1614265330;
    const vector = {
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: String(at),
      signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      body: Buffer.from('{"test": 2432232314}'),
    };
    const bare = SECRET.slice('whsec_'.length);
    expect(verifyStandardWebhook(vector, [bare], at * 1000, 300)).toEqual({ ok: true });
    // Hermes Agent's reading of the same string: its UTF-8 bytes as the key.
    const ts = String(nowS());
    const utf8Signed = `v1,${createHmac('sha256', Buffer.from(bare, 'utf8')).update(`msg_5.${ts}.{}`).digest('base64')}`;
    const message = { id: 'msg_5', timestamp: ts, signature: utf8Signed, body: Buffer.from('{}') };
    expect(verifyStandardWebhook(message, [bare], Date.now(), 300)).toEqual({ ok: true });
    // With the prefix, only the decoded key counts: the UTF-8 reading of the rest is refused.
    expect(verifyStandardWebhook(message, [SECRET], Date.now(), 300).ok).toBe(false);
    // A secret that is not base64 has only its UTF-8 reading.
    expect(standardWebhookVerifyKeys('raw-agentmail-secret!')).toEqual([
      Buffer.from('raw-agentmail-secret!', 'utf8'),
    ]);
    expect(standardWebhookVerifyKeys(bare)).toEqual([
      Buffer.from(bare, 'base64'),
      Buffer.from(bare, 'utf8'),
    ]);
  });

  it('uses a whsec_ secret whose rest is not base64 as its UTF-8 bytes', () => {
    const secret = 'whsec_not base64!';
    const key = Buffer.from(secret, 'utf8');
    const expected = createHmac('sha256', key).update('msg_1.1700000000.{}').digest('base64');
    expect(signStandardWebhook(secret, 'msg_1', '1700000000', '{}')).toBe(`v1,${expected}`);
  });

  it('accepts any of several space-separated signatures, and any secret of a rotation', () => {
    const ts = String(nowS());
    const body = '{"type":"contact.created"}';
    const header = [
      'v1a,ZmFrZSBlZDI1NTE5IHNpZ25hdHVyZQ==',
      independentSignature('whsec_b2xkb2xkb2xkb2xk', 'msg_2', ts, body),
      independentSignature(SECRET, 'msg_2', ts, body),
    ].join(' ');
    const message = { id: 'msg_2', timestamp: ts, signature: header, body: Buffer.from(body) };
    expect(verifyStandardWebhook(message, [SECRET], Date.now(), 300).ok).toBe(true);
    expect(verifyStandardWebhook(message, ['whsec_other', SECRET], Date.now(), 300).ok).toBe(true);
    expect(verifyStandardWebhook(message, ['whsec_other'], Date.now(), 300).ok).toBe(false);
  });

  it('refuses timestamps out of the window or not numbers, and a missing id or timestamp', () => {
    const body = Buffer.from('{}');
    const at = (ts: string) => ({
      id: 'msg_3' as string | undefined,
      timestamp: ts as string | undefined,
      signature: independentSignature(SECRET, 'msg_3', ts, '{}'),
      body,
    });
    const now = Date.now();
    expect(verifyStandardWebhook(at(String(nowS() - 299)), [SECRET], now, 300).ok).toBe(true);
    for (const ts of [String(nowS() - 301), String(nowS() + 301), 'abc', '1.5e9', '', '-1']) {
      expect(verifyStandardWebhook(at(ts), [SECRET], now, 300).ok).toBe(false);
    }
    expect(
      verifyStandardWebhook({ ...at(String(nowS())), id: undefined }, [SECRET], now, 300),
    ).toEqual({ ok: false, reason: 'the id or timestamp header is missing' });
    expect(
      verifyStandardWebhook({ ...at(String(nowS())), timestamp: undefined }, [SECRET], now, 300),
    ).toEqual({ ok: false, reason: 'the id or timestamp header is missing' });
  });

  it('refuses bad base64, wrong lengths, other versions and non-ASCII, never throwing', () => {
    const ts = String(nowS());
    const good = independentSignature(SECRET, 'msg_4', ts, '{}');
    const b64 = good.slice(3);
    for (const signature of [
      `v1,${b64.slice(0, -2)}`,
      `v1,${b64}AAAA`,
      `v1,${b64.replace('=', '!')}`,
      `v2,${b64}`,
      `v1a,${b64}`,
      b64,
      `v1,${b64}\u00e9`,
      `${good}\u00c3\u00a9`,
      '',
    ]) {
      const message = { id: 'msg_4', timestamp: ts, signature, body: Buffer.from('{}') };
      expect(verifyStandardWebhook(message, [SECRET], Date.now(), 300).ok).toBe(false);
    }
  });

  it('never throws on arbitrary header text (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (id, timestamp, signature) => {
        const check = verifyStandardWebhook(
          { id, timestamp, signature, body: Buffer.from('{}') },
          [SECRET],
          Date.now(),
          300,
        );
        expect(check.ok).toBe(false);
      }),
    );
  });
});

describe('the standard-webhooks scheme', () => {
  let probe: SchemeProbe;
  beforeAll(async () => {
    probe = await schemeProbe(plugin);
  });

  const body = '{"type":"contact.created","timestamp":"2022-11-03T20:26:10.344522Z","data":{}}';

  it('takes the event from the payload type and the delivery id from webhook-id', async () => {
    const ts = String(nowS());
    const verdict = await probe({
      headers: {
        'webhook-id': 'msg_5',
        'webhook-timestamp': ts,
        'webhook-signature': independentSignature(SECRET, 'msg_5', ts, body),
      },
      body,
      secrets: [SECRET],
    });
    expect(verdict).toMatchObject({ ok: true, scheme: 'standard-webhooks', deliveryId: 'msg_5' });
    if (verdict?.ok !== true || typeof verdict.event !== 'function') throw new Error('no event');
    expect(verdict.event({ type: 'contact.created' })).toBe('contact.created');
  });

  it("reads Svix's own header names", async () => {
    const ts = String(nowS());
    const verdict = await probe({
      headers: {
        'svix-id': 'msg_6',
        'svix-timestamp': ts,
        'svix-signature': independentSignature(SECRET, 'msg_6', ts, body),
      },
      body,
      secrets: [SECRET],
    });
    expect(verdict).toMatchObject({ ok: true, deliveryId: 'msg_6' });
  });

  it('decides alone once its signature header is there: no timestamp is a refusal', async () => {
    const verdict = await probe({
      headers: { 'webhook-id': 'msg_7', 'webhook-signature': 'v1,AAAA' },
      body,
      secrets: [SECRET],
    });
    expect(verdict).toMatchObject({ ok: false, scheme: 'standard-webhooks' });
  });

  it('lets a request without its signature header pass to other schemes', async () => {
    expect(await probe({ headers: { 'webhook-id': 'x' }, body, secrets: [SECRET] })).toBe(
      undefined,
    );
  });

  it('takes its window from the tolerance_s option', async () => {
    const narrow = await schemeProbe(plugin, { tolerance_s: 10 });
    const ts = String(nowS() - 60);
    const headers = {
      'webhook-id': 'msg_8',
      'webhook-timestamp': ts,
      'webhook-signature': independentSignature(SECRET, 'msg_8', ts, body),
    };
    expect((await probe({ headers, body, secrets: [SECRET] }))?.ok).toBe(true);
    expect((await narrow({ headers, body, secrets: [SECRET] }))?.ok).toBe(false);
  });
});
