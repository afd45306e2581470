/**
 * What the journal benches (scenarios/journal.mjs, journal-lifecycle.mjs) accept: deliveries of
 * the ~6 KB pull_request payload, as the receiver hands them to the store.
 */
import { randomUUID } from 'node:crypto';
import { payloadFactory } from './payload.mjs';

export const HOUR_MS = 3_600_000;

/** `count` payloads (PR numbers 1…count), each with its JSON text and the parsed object. */
export function journalBodies(count) {
  const make = payloadFactory();
  return Array.from({ length: count }, (_, i) => {
    const payloadJson = make(1 + i);
    return { payloadJson, payload: JSON.parse(payloadJson) };
  });
}

/**
 * A new delivery of `body` with a fresh delivery id, ordered by its pull request `pr`.
 * @param {{ payloadJson: string, payload: unknown }} body
 * @param {number} pr
 */
export function newDelivery(body, pr) {
  return {
    route: 'bench',
    event: 'pull_request',
    action: 'opened',
    deliveryId: randomUUID(),
    receivedAt: Date.now(),
    payload: body.payload,
    payloadJson: body.payloadJson,
    headers: { 'x-github-event': 'pull_request', 'user-agent': 'GitHub-Hookshot/bench' },
    orderKey: `bench|octo/repo|${pr}`,
    maxAttempts: 5,
  };
}
