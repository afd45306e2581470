import { describe, expect, it } from 'vitest';
import type { DeliveryEndedRequest } from '@webhook-gateway/core';
import { endStatus, endWithoutReview, PENDING_STATUS } from './check-status.js';
import { deliveredCheck } from './check-output.js';

describe('a REST forge check as a commit status', () => {
  it('is pending while the review runs', () => {
    expect(PENDING_STATUS).toEqual({ state: 'pending', description: 'Review in progress' });
  });

  it('ends with the conclusion: failure only for failure, neutral is success', () => {
    const comment = { path: 'a.ts', line: 1, body: 'x' };
    const end = (value: 'success' | 'neutral' | 'failure') =>
      endStatus(deliveredCheck('Summary.', { value }, [comment], [])).state;
    expect([end('success'), end('neutral'), end('failure')]).toEqual([
      'success',
      'success',
      'failure',
    ]);
    expect(
      endStatus(deliveredCheck('S', { value: 'failure', reason: 'x'.repeat(300) }, [], []))
        .description,
    ).toHaveLength(140);
  });

  it('a delivery failed for good fails it; a silent one concludes', () => {
    const failed = { status: 'failed', error: 'HTTP 403' } as DeliveryEndedRequest;
    expect(endWithoutReview(failed)).toEqual({
      state: 'failure',
      description: 'The review failed',
    });
    const silent = { status: 'silent', conclusion: { value: 'neutral' } } as DeliveryEndedRequest;
    expect(endWithoutReview(silent)).toEqual({ state: 'success', description: 'Reviewed' });
  });
});
