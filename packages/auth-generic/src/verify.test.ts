import { createHmac } from 'node:crypto';
import { schemeProbe, type SchemeProbe } from '@webhook-gateway/core/testing';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { signGenericV2, verifyBearerToken, verifyGenericV1, verifyGenericV2 } from './verify.js';

const body = Buffer.from('{"event":"deploy","status":"done"}');
const nowS = () => String(Math.floor(Date.now() / 1000));

/** The V2 signature, written out with node's crypto (not the code under test). */
function independentV2(bytes: Buffer, secret: string, ts: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${ts}.`), bytes]))
    .digest('hex');
}

/** A header value as Node hands it over: the wire's UTF-8 bytes decoded as latin-1. */
function asReceived(wireText: string): string {
  return Buffer.from(wireText, 'utf8').toString('latin1');
}

describe('verifyGenericV2', () => {
  it('accepts a fixed vector, and signs as the independent computation does', () => {
    // printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac s3cret
    const known = '1698a50bc74d1ff1db85c4e0a5297c2ad9fdba245d5737cdb789e4cc6e098940';
    const fixed = Buffer.from('{"a":1}');
    expect(independentV2(fixed, 's3cret', '1700000000')).toBe(known);
    expect(verifyGenericV2(fixed, known, '1700000000', ['s3cret'], 1_700_000_000_000, 300)).toEqual(
      {
        ok: true,
      },
    );
    expect(signGenericV2(body, 'k', '123')).toBe(independentV2(body, 'k', '123'));
  });

  it('binds the timestamp: the same signature with another timestamp is refused', () => {
    const ts = nowS();
    const signature = independentV2(body, 'k', ts);
    expect(verifyGenericV2(body, signature, ts, ['k'], Date.now(), 300).ok).toBe(true);
    expect(
      verifyGenericV2(body, signature, String(Number(ts) - 1), ['k'], Date.now(), 300).ok,
    ).toBe(false);
  });

  it('refuses a missing, non-numeric or out-of-window timestamp', () => {
    const now = Date.now();
    for (const ts of [
      undefined,
      '',
      'soon',
      '1e9',
      String(Number(nowS()) - 301),
      String(Number(nowS()) + 301),
    ]) {
      const signature = independentV2(body, 'k', ts ?? '');
      expect(verifyGenericV2(body, signature, ts, ['k'], now, 300).ok).toBe(false);
    }
  });

  it('refuses uppercase, prefixed, short and non-ASCII signatures, and never throws (property)', () => {
    const ts = nowS();
    const hex = independentV2(body, 'k', ts);
    for (const bad of [hex.toUpperCase(), `sha256=${hex}`, hex.slice(1), `${hex.slice(1)}\u00e9`]) {
      expect(verifyGenericV2(body, bad, ts, ['k'], Date.now(), 300).ok).toBe(false);
    }
    fc.assert(
      fc.property(fc.string(), fc.string(), (signature, timestamp) => {
        expect(verifyGenericV2(body, signature, timestamp, ['k'], Date.now(), 300).ok).toBe(false);
      }),
    );
  });
});

describe('verifyBearerToken', () => {
  it('accepts exactly a secret of the rotation, compared as UTF-8 bytes', () => {
    expect(verifyBearerToken('tok', ['old', 'tok'])).toBe(true);
    expect(verifyBearerToken(asReceived('tökén'), ['tökén'])).toBe(true);
    for (const bad of ['tok ', 'TOK', 'to', '', 'tökén']) {
      expect(verifyBearerToken(bad, ['tok', 'tökén'])).toBe(false);
    }
  });
});

describe('verifyGenericV1', () => {
  it('matches lowercase hex HMAC-SHA256 of the body under a secret of the rotation only', () => {
    // printf '{"a":1}' | openssl dgst -sha256 -hmac s3cret
    const fixed = Buffer.from('{"a":1}');
    const known = '5910e62016ef5034272c926c27071992a465c2335cecf41851bda071577f4f6d';
    expect(verifyGenericV1(fixed, known, ['old', 's3cret'])).toBe(true);
    for (const bad of [known.toUpperCase(), `sha256=${known}`, known.slice(1), '']) {
      expect(verifyGenericV1(fixed, bad, ['s3cret'])).toBe(false);
    }
    expect(verifyGenericV1(fixed, known, ['other'])).toBe(false);
  });
});

describe('the generic scheme', () => {
  let probe: SchemeProbe;
  beforeAll(async () => {
    probe = await schemeProbe(plugin);
  });

  it('accepts V2 with the event and request id from their headers', async () => {
    const ts = nowS();
    const verdict = await probe({
      headers: {
        'x-webhook-signature-v2': independentV2(body, 's', ts),
        'x-webhook-timestamp': ts,
        'x-webhook-event': 'deploy',
        'x-request-id': 'req-1',
      },
      body,
      secrets: ['s'],
    });
    expect(verdict).toEqual({ ok: true, scheme: 'generic', event: 'deploy', deliveryId: 'req-1' });
  });

  it("accepts a Bearer token; the event is the route's name without X-Webhook-Event", async () => {
    const verdict = await probe({
      headers: { authorization: 'Bearer s' },
      body,
      secrets: ['s'],
      route: 'deploys',
    });
    expect(verdict).toEqual({ ok: true, scheme: 'generic', event: 'deploys' });
  });

  it('refuses a bad V2 signature even beside a valid Bearer token', async () => {
    const ts = nowS();
    const verdict = await probe({
      headers: {
        'x-webhook-signature-v2': independentV2(body, 'wrong', ts),
        'x-webhook-timestamp': ts,
        authorization: 'Bearer s',
      },
      body,
      secrets: ['s'],
    });
    expect(verdict).toMatchObject({ ok: false, scheme: 'generic' });
  });

  it('refuses V2 without its timestamp, never falling back to the Bearer token', async () => {
    const verdict = await probe({
      headers: {
        'x-webhook-signature-v2': independentV2(body, 's', nowS()),
        authorization: 'Bearer s',
      },
      body,
      secrets: ['s'],
    });
    expect(verdict).toEqual({
      ok: false,
      scheme: 'generic',
      reason: 'X-Webhook-Timestamp is missing',
    });
  });

  it('refuses a wrong V1 X-Webhook-Signature beside a valid Bearer token, and takes a right one', async () => {
    const v1 = (secret: string) => createHmac('sha256', secret).update(body).digest('hex');
    const wrong = await probe({
      headers: { 'x-webhook-signature': v1('wrong'), authorization: 'Bearer s' },
      body,
      secrets: ['s'],
    });
    expect(wrong).toEqual({
      ok: false,
      scheme: 'generic',
      reason: 'X-Webhook-Signature does not match',
    });
    const right = await probe({
      headers: { 'x-webhook-signature': v1('s'), authorization: 'Bearer s' },
      body,
      secrets: ['s'],
      route: 'r',
    });
    expect(right).toMatchObject({ ok: true, scheme: 'generic' });
    // V1 alone signs no time, so a captured one would replay forever: never a credential.
    expect(
      await probe({ headers: { 'x-webhook-signature': v1('s') }, body, secrets: ['s'] }),
    ).toBeUndefined();
  });

  it('leaves other Authorization schemes and requests without its headers to other schemes', async () => {
    for (const headers of [{ authorization: 'Basic czpz' }, { 'x-webhook-timestamp': nowS() }]) {
      expect(await probe({ headers, body, secrets: ['s'] })).toBeUndefined();
    }
  });
});
