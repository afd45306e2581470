import { describe, expect, it } from 'vitest';
import { formatDuration, formatTime } from './format.js';

describe('formatTime', () => {
  it('shows UTC to the second', () => {
    expect(formatTime(Date.UTC(2025, 0, 2, 3, 4, 5, 678))).toBe('2025-01-02 03:04:05 UTC');
  });

  it('shows a dash for a time that has not come', () => {
    expect(formatTime(null)).toBe('—');
  });
});

describe('formatDuration', () => {
  it.each([
    [350, '350 ms'],
    [2_400, '2.4 s'],
    [185_000, '3 min 5 s'],
    [7_800_000, '2 h 10 min'],
    [null, '—'],
    [-5, '—'],
  ])('formats %s ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
