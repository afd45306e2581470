import { describe, expect, it } from 'vitest';
import { FILTER_REGEX_TIMEOUT_MS, searchWithin } from './filter-regex-limit.js';

// Hermes' pathological input: `(a+)+$` backtracks 2^50000 ways on it, so a search that was not
// stopped would outlast the test's own timeout.
const CATASTROPHIC = '(a+)+$';
const CHOKES_IT = 'a'.repeat(50_000) + '!';

describe('searchWithin', () => {
  it('searches as the compiled filter regex does', () => {
    expect(searchWithin('^refs/heads/(main|release-\\d+)$', 'refs/heads/release-42', 100)).toBe(
      'match',
    );
    expect(searchWithin('(?i)^release/(?P<version>.+)$', 'Release/1.2', 100)).toBe('match');
    expect(searchWithin('^refs/heads/main$', 'refs/heads/feature', 100)).toBe('no-match');
  });

  it('stops a catastrophic search at the limit, and the regex still works after', () => {
    expect(searchWithin(CATASTROPHIC, CHOKES_IT, FILTER_REGEX_TIMEOUT_MS)).toBe('timed-out');
    // The same cached context, used again: a short text matches, the long one is stopped again.
    expect(searchWithin(CATASTROPHIC, 'aaaa', FILTER_REGEX_TIMEOUT_MS)).toBe('match');
    expect(searchWithin(CATASTROPHIC, 'aaa!', FILTER_REGEX_TIMEOUT_MS)).toBe('no-match');
    expect(searchWithin(CATASTROPHIC, CHOKES_IT, 1)).toBe('timed-out');
  });

  it('stops a search that would end, but far too late', () => {
    // Seconds unstopped (2.5 s in plain node here, 20 s under vitest), far past the limit: were
    // the limit not kept, this search would end with no-match and the test fail (the 50,000
    // a's above would hang it instead).
    expect(searchWithin(CATASTROPHIC, 'a'.repeat(27) + '!', FILTER_REGEX_TIMEOUT_MS)).toBe(
      'timed-out',
    );
  });

  it('reads Hermes’ spelling the same under the limit as without it', () => {
    expect(searchWithin('\\Aab\\Z', 'ab', 100)).toBe('match');
    expect(searchWithin('\\Aab\\Z', 'xab', 100)).toBe('no-match');
  });
});
