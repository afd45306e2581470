import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signForgeBody, verifyForgeSignature } from './verify.js';

const body = Buffer.from('{"zen":"Keep it logically awesome.","hook_id":1}');

describe('verifyForgeSignature', () => {
  it('accepts the signature the forge would send', () => {
    expect(verifyForgeSignature(body, signForgeBody(body, 's3cret'), ['s3cret'])).toBe(true);
  });

  it('rejects a signature made with another secret', () => {
    expect(verifyForgeSignature(body, signForgeBody(body, 'other'), ['s3cret'])).toBe(false);
  });

  it('accepts any of the secrets of a rotation', () => {
    expect(verifyForgeSignature(body, signForgeBody(body, 'new'), ['old', 'new'])).toBe(true);
  });

  it('verifies bytes that are not valid UTF-8 exactly as signed', () => {
    const raw = Buffer.concat([
      Buffer.from('{"title":"'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}'),
    ]);
    expect(verifyForgeSignature(raw, signForgeBody(raw, 'k'), ['k'])).toBe(true);
    const reencoded = Buffer.from(raw.toString('utf8'));
    expect(verifyForgeSignature(reencoded, signForgeBody(raw, 'k'), ['k'])).toBe(false);
  });

  it('rejects uppercase hex, a missing prefix, the sha1 form and wrong lengths', () => {
    const good = signForgeBody(body, 'k');
    const hex = good.slice('sha256='.length);
    for (const bad of [
      `sha256=${hex.toUpperCase()}`,
      hex,
      `sha1=${hex.slice(0, 40)}`,
      `sha256=${hex.slice(0, 63)}`,
      `sha256=${hex}00`,
      'sha256=',
      '',
    ]) {
      expect(verifyForgeSignature(body, bad, ['k'])).toBe(false);
    }
  });

  it('never accepts a signature over different bytes (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 256 }),
        fc.uint8Array({ maxLength: 256 }),
        fc.string({ minLength: 1 }),
        (a, b, secret) => {
          const bufA = Buffer.from(a);
          const bufB = Buffer.from(b);
          const signature = signForgeBody(bufA, secret);
          expect(verifyForgeSignature(bufA, signature, [secret])).toBe(true);
          expect(verifyForgeSignature(bufB, signature, [secret])).toBe(bufA.equals(bufB));
        },
      ),
    );
  });

  it('never throws on arbitrary header text (property)', () => {
    fc.assert(
      fc.property(fc.string(), (header) => {
        expect(typeof verifyForgeSignature(body, header, ['k'])).toBe('boolean');
      }),
    );
  });
});
