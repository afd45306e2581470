import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { schemeProbe, type SchemeProbe } from '@webhook-gateway/core/testing';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { signGiteaBody, verifyGiteaSignature } from './verify.js';

const body = fs.readFileSync(
  new URL('../../../test/fixtures/gitea/pull_request_opened.json', import.meta.url),
);

/** Gitea's signature, written out with node's crypto (not the code under test). */
function independent(bytes: Buffer | string, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(bytes).digest('hex');
}

describe('verifyGiteaSignature', () => {
  it('accepts a fixed vector and signs as the independent computation does', () => {
    // HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog"), RFC 4231-style known value.
    const fox = Buffer.from('The quick brown fox jumps over the lazy dog');
    const known = 'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8';
    expect(independent(fox, 'key')).toBe(known);
    expect(verifyGiteaSignature(fox, known, ['key'])).toBe(true);
    expect(signGiteaBody(body, 'gitea-secret')).toBe(independent(body, 'gitea-secret'));
  });

  it('accepts any secret of a rotation and a UTF-8 secret as its bytes', () => {
    expect(verifyGiteaSignature(body, independent(body, 'new'), ['old', 'new'])).toBe(true);
    expect(verifyGiteaSignature(body, independent(body, 'sécret'), ['sécret'])).toBe(true);
    expect(verifyGiteaSignature(body, independent(body, 'other'), ['old', 'new'])).toBe(false);
  });

  it('refuses uppercase hex, a sha256= prefix, wrong lengths and non-ASCII', () => {
    const hex = independent(body, 'k');
    for (const bad of [
      hex.toUpperCase(),
      `sha256=${hex}`,
      hex.slice(0, 63),
      `${hex}0`,
      `${hex.slice(0, 63)}\u00e9`,
      '',
    ]) {
      expect(verifyGiteaSignature(body, bad, ['k'])).toBe(false);
    }
  });

  it('never accepts a signature over other bytes, nor throws (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 128 }), fc.string(), (other, header) => {
        const bytes = Buffer.from(other);
        expect(verifyGiteaSignature(bytes, independent(body, 'k'), ['k'])).toBe(bytes.equals(body));
        expect(typeof verifyGiteaSignature(bytes, header, ['k'])).toBe('boolean');
      }),
    );
  });
});

describe('the gitea scheme', () => {
  let probe: SchemeProbe;
  beforeAll(async () => {
    probe = await schemeProbe(plugin);
  });

  it('takes event and delivery id from the Gitea headers', async () => {
    const verdict = await probe({
      headers: {
        'x-gitea-signature': independent(body, 's'),
        'x-gitea-event': 'pull_request',
        'x-gitea-delivery': 'd-gitea-1',
      },
      body,
      secrets: ['s'],
    });
    expect(verdict).toEqual({
      ok: true,
      scheme: 'gitea',
      event: 'pull_request',
      deliveryId: 'd-gitea-1',
    });
  });

  it('reads the Forgejo names, and needs every signature header present to verify', async () => {
    const good = independent(body, 's');
    const forgejo = { 'x-forgejo-event': 'pull_request', 'x-forgejo-delivery': 'd-fj' };
    expect(
      await probe({ headers: { 'x-forgejo-signature': good, ...forgejo }, body, secrets: ['s'] }),
    ).toMatchObject({ ok: true, event: 'pull_request', deliveryId: 'd-fj' });
    const bad = independent(body, 'nope');
    for (const headers of [
      { 'x-forgejo-signature': good, 'x-gitea-signature': bad },
      { 'x-forgejo-signature': bad, 'x-gitea-signature': good },
      { 'x-gitea-signature': '' },
    ]) {
      expect(await probe({ headers, body, secrets: ['s'] })).toMatchObject({ ok: false });
    }
  });

  it('leaves requests without its signature headers to other schemes', async () => {
    expect(
      await probe({ headers: { 'x-gitea-event': 'push' }, body, secrets: ['s'] }),
    ).toBeUndefined();
  });
});
