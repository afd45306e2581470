import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { schemeProbe, type SchemeProbe } from '@webhook-gateway/core/testing';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { signBitbucketBody, verifyBitbucketSignature } from './verify.js';

const cloud = fs.readFileSync(
  new URL('../../../test/fixtures/bitbucket/pullrequest_created.json', import.meta.url),
);
const dataCenter = fs.readFileSync(
  new URL('../../../test/fixtures/bitbucket/pr_opened.json', import.meta.url),
);

/** Bitbucket's signature, written out with node's crypto (not the code under test). */
function independent(bytes: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(bytes).digest('hex')}`;
}

describe('verifyBitbucketSignature', () => {
  it('accepts a fixed vector and signs as the independent computation does', () => {
    const fox = Buffer.from('The quick brown fox jumps over the lazy dog');
    const known = 'sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8';
    expect(independent(fox, 'key')).toBe(known);
    expect(verifyBitbucketSignature(fox, known, ['key'])).toBe(true);
    expect(signBitbucketBody(cloud, 'bb')).toBe(independent(cloud, 'bb'));
  });

  it('accepts any secret of a rotation', () => {
    expect(verifyBitbucketSignature(dataCenter, independent(dataCenter, 'n'), ['o', 'n'])).toBe(
      true,
    );
    expect(verifyBitbucketSignature(dataCenter, independent(dataCenter, 'x'), ['o', 'n'])).toBe(
      false,
    );
  });

  it('refuses sha1=, no prefix, uppercase hex, wrong lengths and non-ASCII', () => {
    const good = independent(cloud, 'k');
    const hex = good.slice('sha256='.length);
    const sha1 = createHmac('sha1', 'k').update(cloud).digest('hex');
    for (const bad of [
      `sha1=${sha1}`,
      hex,
      `sha256=${hex.toUpperCase()}`,
      `sha256=${hex.slice(1)}`,
      `${good}0`,
      `${good.slice(0, -1)}\u00e9`,
      'sha256=',
    ]) {
      expect(verifyBitbucketSignature(cloud, bad, ['k'])).toBe(false);
    }
  });

  it('never throws on arbitrary header text (property)', () => {
    fc.assert(
      fc.property(fc.string(), (header) => {
        expect(verifyBitbucketSignature(cloud, header, ['k'])).toBe(false);
      }),
    );
  });
});

describe('the bitbucket scheme', () => {
  let probe: SchemeProbe;
  beforeAll(async () => {
    probe = await schemeProbe(plugin);
  });

  it('reads a Cloud delivery: X-Event-Key and X-Request-UUID', async () => {
    const verdict = await probe({
      headers: {
        'x-hub-signature': independent(cloud, 's'),
        'x-event-key': 'pullrequest:created',
        'x-request-uuid': 'a1b2-cloud',
      },
      body: cloud,
      secrets: ['s'],
    });
    expect(verdict).toEqual({
      ok: true,
      scheme: 'bitbucket',
      event: 'pullrequest:created',
      deliveryId: 'a1b2-cloud',
    });
  });

  it('reads a Data Center delivery: X-Event-Key and X-Request-Id', async () => {
    const verdict = await probe({
      headers: {
        'x-hub-signature': independent(dataCenter, 's'),
        'x-event-key': 'pr:opened',
        'x-request-id': 'dc-1',
      },
      body: dataCenter,
      secrets: ['s'],
    });
    expect(verdict).toMatchObject({ ok: true, event: 'pr:opened', deliveryId: 'dc-1' });
  });

  it("leaves Gitea's sha1 X-Hub-Signature (no X-Event-Key) to other schemes", async () => {
    expect(
      await probe({
        headers: { 'x-hub-signature': `sha1=${'0'.repeat(40)}` },
        body: cloud,
        secrets: ['s'],
      }),
    ).toBeUndefined();
  });

  it('refuses a bad signature once both headers are there', async () => {
    expect(
      await probe({
        headers: { 'x-hub-signature': independent(cloud, 'other'), 'x-event-key': 'repo:push' },
        body: cloud,
        secrets: ['s'],
      }),
    ).toMatchObject({ ok: false, scheme: 'bitbucket' });
  });
});
