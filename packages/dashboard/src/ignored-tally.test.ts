import { describe, expect, it } from 'vitest';
import { IgnoredTally } from './ignored-tally.js';
import { HOUR_MS } from './overview-data.js';

describe('IgnoredTally', () => {
  it('counts by UTC hour and keeps the last 7 days only', () => {
    const tally = new IgnoredTally();
    const hour = Date.UTC(2025, 0, 10, 12);
    tally.add(hour + 5);
    tally.add(hour + HOUR_MS - 1);
    tally.add(hour + HOUR_MS);
    expect(Object.fromEntries(tally.perHour())).toEqual({ [hour]: 2, [hour + HOUR_MS]: 1 });

    tally.add(hour + 168 * HOUR_MS);
    expect([...tally.perHour().keys()]).toEqual([hour + HOUR_MS, hour + 168 * HOUR_MS]);
  });
});
