/** A journal record for the `deliveries` unit tests; override what a test is about. */
import type { DeliveryRecord } from '@webhook-gateway/core';

export const T0 = Date.UTC(2025, 0, 15, 10, 0, 0);

export function testRecord(overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id: '0b8e5a52-2f7c-4f0e-9d55-0c1f3c1f9a11',
    seq: 7,
    route: 'reviews',
    event: 'pull_request',
    action: 'opened',
    deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
    receivedAt: T0,
    payload: { action: 'opened', number: 2 },
    headers: { 'x-forge-event': 'pull_request', 'user-agent': 'Forge-Hookshot/044aadd' },
    orderKey: 'reviews|octo/repo|2',
    maxAttempts: 5,
    status: 'delivered',
    attempts: 2,
    nextAttemptAt: T0 + 1_000,
    prompt: 'Review PR #2',
    answer: 'Looks good.',
    lastError: 'messenger_c (Slack): sending to channel C1 failed: Slack answered HTTP 500',
    startedAt: T0 + 40,
    finishedAt: T0 + 1_900,
    attemptLog: [
      {
        attempt: 1,
        startedAt: T0 + 40,
        finishedAt: T0 + 540,
        error: 'messenger_c (Slack): sending to channel C1 failed: Slack answered HTTP 500',
      },
      { attempt: 2, startedAt: T0 + 1_500, finishedAt: T0 + 1_900, error: null },
    ],
    agent: null,
    ...overrides,
  };
}
