import { describe, expect, it } from 'vitest';
import {
  bodyHmacMatches,
  digestsEqual,
  isPrintableAscii,
  isWithinWindow,
} from './signature-checks.js';

describe('isPrintableAscii', () => {
  it('accepts printable ASCII and refuses control, latin-1 and UTF-8 bytes as Node decodes them', () => {
    expect(isPrintableAscii('v1,abc= v1,def=')).toBe(true);
    expect(isPrintableAscii('')).toBe(true);
    for (const bad of ['a\tb', 'a\x00', Buffer.from('é', 'utf8').toString('latin1'), '\xff']) {
      expect(isPrintableAscii(bad)).toBe(false);
    }
  });
});

describe('isWithinWindow', () => {
  const now = 1_700_000_000_000;

  it('accepts Unix seconds up to the tolerance either side, and no further', () => {
    expect(isWithinWindow('1700000000', 1000, now, 300)).toBe(true);
    expect(isWithinWindow('1699999700', 1000, now, 300)).toBe(true);
    expect(isWithinWindow('1700000300', 1000, now, 300)).toBe(true);
    expect(isWithinWindow('1699999699', 1000, now, 300)).toBe(false);
    expect(isWithinWindow('1700000301', 1000, now, 300)).toBe(false);
  });

  it('reads milliseconds with a unit of 1', () => {
    expect(isWithinWindow(String(now - 60_000), 1, now, 60)).toBe(true);
    expect(isWithinWindow(String(now - 60_001), 1, now, 60)).toBe(false);
  });

  it('refuses what is not a whole number of digits', () => {
    for (const bad of [
      '',
      ' 1700000000',
      '1700000000.5',
      '-1',
      '1e9',
      '0x10',
      'NaN',
      '9'.repeat(17),
    ]) {
      expect(isWithinWindow(bad, 1000, now, 300)).toBe(false);
    }
  });
});

describe('digestsEqual', () => {
  it('is true only for the same bytes of the same length', () => {
    expect(digestsEqual(Buffer.from('abc'), Buffer.from('abc'))).toBe(true);
    expect(digestsEqual(Buffer.from('abc'), Buffer.from('abd'))).toBe(false);
    expect(digestsEqual(Buffer.from('abc'), Buffer.from('ab'))).toBe(false);
  });
});

describe('bodyHmacMatches', () => {
  // RFC-style known answer: HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog").
  const body = Buffer.from('The quick brown fox jumps over the lazy dog');
  const digest = Buffer.from(
    'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    'hex',
  );

  it('matches the digest under any secret of a rotation, and nothing else', () => {
    expect(bodyHmacMatches(body, digest, ['key'])).toBe(true);
    expect(bodyHmacMatches(body, digest, ['old', 'key'])).toBe(true);
    expect(bodyHmacMatches(body, digest, ['kez'])).toBe(false);
    expect(bodyHmacMatches(body, digest, [])).toBe(false);
    expect(bodyHmacMatches(body, digest.subarray(0, 31), ['key'])).toBe(false);
  });
});
