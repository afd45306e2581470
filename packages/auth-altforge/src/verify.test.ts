import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyAltforgeToken } from './verify.js';

/** A header value as Node hands it over: the wire's bytes decoded as latin-1. */
function asReceived(wireText: string): string {
  return Buffer.from(wireText, 'utf8').toString('latin1');
}

describe('verifyAltforgeToken', () => {
  it('accepts the exact secret', () => {
    expect(verifyAltforgeToken('glpat-token', ['glpat-token'])).toBe(true);
  });

  it('rejects another token, a prefix, a different case and the empty string', () => {
    for (const bad of ['other', 'glpat-toke', 'GLPAT-TOKEN', 'glpat-token ', '']) {
      expect(verifyAltforgeToken(bad, ['glpat-token'])).toBe(false);
    }
  });

  it('accepts any secret of a rotation', () => {
    expect(verifyAltforgeToken('new', ['old', 'new'])).toBe(true);
  });

  it('accepts exactly the listed secrets (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (token, secret) => {
        expect(verifyAltforgeToken(token, [secret])).toBe(token === secret);
      }),
    );
  });

  it('accepts a non-ASCII secret sent as its UTF-8 bytes, and nothing near it', () => {
    const secret = 'gl-tökén-välue';
    expect(verifyAltforgeToken(asReceived(secret), [secret])).toBe(true);
    expect(verifyAltforgeToken(asReceived('gl-tokén-välue'), [secret])).toBe(false);
    // A latin-1 sender's bytes are not the secret's UTF-8 bytes.
    expect(verifyAltforgeToken(secret, [secret])).toBe(false);
  });

  it('accepts any secret sent as UTF-8 and no other token (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'grapheme', minLength: 1 }),
        (token, secret) => {
          expect(verifyAltforgeToken(asReceived(token), [secret])).toBe(token === secret);
        },
      ),
    );
  });
});
