import { describe, expect, it } from 'vitest';
import { T0, testRecord } from './test-support/delivery-record.js';
import { currentRoundAttempts, deliveryDurationMs } from './timing.js';

describe('deliveryDurationMs', () => {
  it('runs from the first attempt to the outcome, backoff included', () => {
    expect(deliveryDurationMs(testRecord())).toBe(1_860);
  });

  it('is unknown while the delivery is queued or running', () => {
    expect(deliveryDurationMs(testRecord({ status: 'queued', finishedAt: null }))).toBeNull();
    expect(deliveryDurationMs(testRecord({ status: 'running', finishedAt: null }))).toBeNull();
  });

  it('counts only the attempts since the last replay', () => {
    const replayed = testRecord({
      attempts: 1,
      finishedAt: T0 + 60_300,
      attemptLog: [
        ...testRecord().attemptLog,
        { attempt: 3, startedAt: T0 + 60_000, finishedAt: T0 + 60_300, error: null },
      ],
    });
    expect(currentRoundAttempts(replayed).map((a) => a.attempt)).toEqual([3]);
    expect(deliveryDurationMs(replayed)).toBe(300);
  });
});
