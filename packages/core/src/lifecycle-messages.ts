/**
 * The outbox messages a status change writes: one per subscriber that wants the event, each
 * body a Standard Webhooks payload (`type`, `timestamp`, `data`). Every store builds them here,
 * from the row as the change leaves it (`docs/contract.md#lifecycle-events`).
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryRecord } from './delivery.js';
import type { LifecycleEvent } from './lifecycle-events.js';
import type { OutboundPlan } from './outbound-plan.js';
import { OUTBOX_TTL_MS, type NewOutboxMessage } from './outbox.js';

/** How much of the answer an event carries (`include_answer`), in characters. */
const ANSWER_EXCERPT_CHARS = 1000;

/** What an event says about its delivery: the row as the change leaves it. */
export type LifecycleFacts = Pick<
  DeliveryRecord,
  | 'id'
  | 'route'
  | 'deliveryId'
  | 'event'
  | 'action'
  | 'status'
  | 'attempts'
  | 'maxAttempts'
  | 'receivedAt'
  | 'startedAt'
  | 'finishedAt'
  | 'nextAttemptAt'
  | 'lastError'
  | 'agent'
  | 'answer'
  | 'supersededBy'
  | 'traceContext'
>;

/** Events whose `reason` is the row's last error (the failure, or why it was not run). */
const EVENTS_WITH_REASON: ReadonlySet<LifecycleEvent> = new Set([
  'failed',
  'dead',
  'denied',
  'over_budget',
  'skipped',
]);

/** True when some subscriber of the plan wants `event`: only then does a store read the row. */
export function wantsLifecycle(plan: OutboundPlan | undefined, event: LifecycleEvent): boolean {
  return plan?.subscriptions.some((s) => s.events.includes(event)) ?? false;
}

/** The first `ANSWER_EXCERPT_CHARS` characters (code points, never half a pair). */
function answerExcerpt(answer: string): string {
  const chars = Array.from(answer);
  return chars.length <= ANSWER_EXCERPT_CHARS
    ? answer
    : chars.slice(0, ANSWER_EXCERPT_CHARS).join('');
}

/**
 * The payload of one event, as an object (`JSON.stringify` it to send). `at` is when the change
 * happened; every time in `data.timings` is ms since the epoch, null until it happened.
 */
export function lifecycleBody(
  event: LifecycleEvent,
  facts: LifecycleFacts,
  at: number,
  includeAnswer = false,
): Record<string, unknown> {
  const usage = facts.agent?.usage;
  return {
    type: `delivery.${event}`,
    timestamp: new Date(at).toISOString(),
    data: {
      event,
      route: facts.route,
      journal_id: facts.id,
      delivery_id: facts.deliveryId,
      sender_event: facts.event,
      action: facts.action,
      status: facts.status,
      attempt: facts.attempts,
      max_attempts: facts.maxAttempts,
      timings: {
        received_at: facts.receivedAt,
        started_at: facts.startedAt,
        finished_at: facts.finishedAt,
        retry_at: event === 'failed' ? facts.nextAttemptAt : null,
      },
      tokens: usage
        ? {
            prompt: usage.promptTokens,
            completion: usage.completionTokens,
            total: usage.totalTokens,
          }
        : null,
      cost: facts.agent?.cost ?? null,
      reason: EVENTS_WITH_REASON.has(event) ? facts.lastError : null,
      superseded_by: facts.supersededBy ?? null,
      ...(includeAnswer && facts.answer !== null ? { answer: answerExcerpt(facts.answer) } : {}),
    },
  };
}

/** A new message id: `msg_` and a UUID. */
export function outboxMessageId(): string {
  return `msg_${randomUUID()}`;
}

/**
 * The messages a change writes: one per subscriber of `plan` that wants `event`, about the row
 * as the change left it (`facts`), at `at`, kept a day (`OUTBOX_TTL_MS`), with the row's trace
 * context.
 */
export function lifecycleMessages(
  plan: OutboundPlan | undefined,
  event: LifecycleEvent,
  facts: LifecycleFacts,
  at: number,
): NewOutboxMessage[] {
  if (!plan) return [];
  return plan.subscriptions
    .filter((subscription) => subscription.events.includes(event))
    .map((subscription) => ({
      id: outboxMessageId(),
      destination: subscription.destination,
      body: JSON.stringify(lifecycleBody(event, facts, at, subscription.includeAnswer)),
      createdAt: at,
      expiresAt: at + OUTBOX_TTL_MS,
      // Its POSTs join the delivery's trace.
      ...(facts.traceContext !== undefined ? { traceContext: facts.traceContext } : {}),
    }));
}
