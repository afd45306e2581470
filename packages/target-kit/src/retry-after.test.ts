import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryAfterSecondsToMs } from './retry-after.js';

describe('parseRetryAfter', () => {
  it('reads whole and decimal seconds', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(' 0.25 ')).toBe(250);
  });

  it('reads an HTTP date as the time left until it', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
  });

  it('says nothing for a missing or unreadable value', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-1')).toBeUndefined();
  });
});

describe('retryAfterSecondsToMs', () => {
  it('converts sane body values only', () => {
    expect(retryAfterSecondsToMs(0.2)).toBe(200);
    expect(retryAfterSecondsToMs(undefined)).toBeUndefined();
    expect(retryAfterSecondsToMs(-3)).toBeUndefined();
  });
});
