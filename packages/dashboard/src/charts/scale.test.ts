import { describe, expect, it } from 'vitest';
import { durationTickLabel, durationTicks, valueTicks } from './scale.js';

describe('valueTicks', () => {
  it('runs from zero to a round top at or above the largest value', () => {
    expect(valueTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(valueTicks(100)).toEqual([0, 25, 50, 75, 100]);
    expect(valueTicks(12_345)).toEqual([0, 5000, 10_000, 15_000]);
    expect(valueTicks(0.7)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
  });

  it('keeps counts whole, and gives an empty chart an axis of 0 to 1', () => {
    expect(valueTicks(2, { whole: true })).toEqual([0, 1, 2]);
    expect(valueTicks(0)).toEqual([0, 1]);
    expect(valueTicks(Number.NaN)).toEqual([0, 1]);
  });
});

describe('durationTicks', () => {
  it('steps by round durations up to the longest value', () => {
    expect(durationTicks(100_000)).toEqual([0, 30_000, 60_000, 90_000, 120_000]);
    expect(durationTicks(280_000)).toEqual([0, 120_000, 240_000, 360_000]);
    expect(durationTicks(900)).toEqual([0, 500, 1000]);
    expect(durationTicks(0)).toEqual([0, 1000]);
  });

  it('labels ticks in the unit that reads best', () => {
    expect([0, 500, 30_000, 90_000, 120_000, 5_400_000].map(durationTickLabel)).toEqual([
      '0',
      '500 ms',
      '30 s',
      '1.5 min',
      '2 min',
      '1.5 h',
    ]);
  });
});
