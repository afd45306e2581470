/** Journal rows for unit tests. */
import type { DeliveryRecord } from '@webhook-gateway/core';

/** A delivered row of route `reviews`; override what the test is about. */
export function deliveryRecord(overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id: 'journal-1',
    seq: 1,
    route: 'reviews',
    event: 'pull_request',
    action: 'opened',
    deliveryId: 'delivery-1',
    receivedAt: Date.UTC(2025, 0, 2, 3, 4, 5),
    payload: { action: 'opened', number: 7 },
    headers: { 'x-forge-event': 'pull_request' },
    orderKey: null,
    maxAttempts: 5,
    status: 'delivered',
    attempts: 1,
    nextAttemptAt: 0,
    prompt: 'Review PR #7',
    answer: 'Looks good',
    lastError: null,
    startedAt: Date.UTC(2025, 0, 2, 3, 4, 6),
    finishedAt: Date.UTC(2025, 0, 2, 3, 4, 8),
    attemptLog: [
      {
        attempt: 1,
        startedAt: Date.UTC(2025, 0, 2, 3, 4, 6),
        finishedAt: Date.UTC(2025, 0, 2, 3, 4, 8),
        error: null,
      },
    ],
    agent: null,
    ...overrides,
  };
}
