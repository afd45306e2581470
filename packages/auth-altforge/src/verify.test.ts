import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyAltforgeToken } from './verify.js';

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
});
