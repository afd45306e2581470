/** What a store is given to keep, for testing stores: a delivery and a subscription. */
import { randomUUID } from 'node:crypto';
import type { NewDelivery, Subscription } from '../index.js';

/**
 * A pull-request delivery received now, with a fresh delivery id; override what the test is about.
 *
 * @example
 * await store.accept(sampleDelivery({ deliveryId: 'd-1', receivedAt: t0 }), 3_600_000);
 */
export function sampleDelivery(overrides: Partial<NewDelivery> = {}): NewDelivery {
  return {
    route: 'reviews',
    event: 'pull_request',
    action: 'opened',
    deliveryId: randomUUID(),
    receivedAt: Date.now(),
    payload: {
      action: 'opened',
      number: 7,
      pull_request: { number: 7, title: 'Add retries', draft: false },
      repository: { full_name: 'octo/repo' },
    },
    headers: { 'x-forge-event': 'pull_request', 'user-agent': 'Forge-Hookshot/1' },
    orderKey: 'reviews|octo/repo|7',
    maxAttempts: 5,
    ...overrides,
  };
}

/**
 * A subscription with every optional field set, created now; override what the test is about.
 *
 * @example
 * await store.putSubscription(sampleSubscription({ name: 'alpha', prompt: null }));
 */
export function sampleSubscription(overrides: Partial<Subscription> = {}): Subscription {
  const now = Date.now();
  return {
    name: 'nightly',
    description: 'Nightly triage ☾',
    events: ['issues', 'pull_request'],
    prompt: 'Triage {issue.title}',
    deliver: 'messenger_a',
    deliverChatId: '-1001234',
    skills: ['triage'],
    secret: 's3cret',
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}
