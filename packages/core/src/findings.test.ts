import { describe, expect, it } from 'vitest';
import {
  findingCountsLine,
  findingFingerprint,
  findingMarker,
  findingMarkersIn,
  withoutFindingMarkers,
} from './findings.js';

describe('finding fingerprints', () => {
  it('stay the same when only whitespace changes, and change with the route, the text or the code line', () => {
    const base = findingFingerprint('review', 'b is unused', 'const b = 2;');
    expect(base).toMatch(/^[0-9a-f]{24}$/);
    expect(findingFingerprint('review', ' b  is\nunused ', '    const b = 2;')).toBe(base);
    expect(findingFingerprint('other', 'b is unused', 'const b = 2;')).not.toBe(base);
    expect(findingFingerprint('review', 'b is used', 'const b = 2;')).not.toBe(base);
    expect(findingFingerprint('review', 'b is unused', 'const b = 3;')).not.toBe(base);
  });

  it('ride in a hidden marker that reads back, and an agent’s copied marker is taken out of its text', () => {
    const marker = findingMarker('abc123');
    expect(marker).toBe('<!-- webhook-gateway:finding abc123 -->');
    expect(findingMarkersIn(`text\n\n${marker}`)).toEqual(['abc123']);
    // Anything but hex digits cannot leave the marker (no `-->` from a fingerprint).
    expect(findingMarker('ab --> cd')).toBe('<!-- webhook-gateway:finding abcd -->');
    expect(withoutFindingMarkers(`same finding ${marker}`)).toBe('same finding');
  });

  it('are counted in one summary line', () => {
    expect(
      findingCountsLine({ new: 1, stillOpen: 2, resolved: 3, suppressed: 1, resolveErrors: 0 }),
    ).toBe('Findings: 1 new, 2 still open, 3 resolved since the last review.');
  });
});
