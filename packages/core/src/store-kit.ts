/**
 * `@webhook-gateway/core/store-kit`: what a store implementation shares with core and the other
 * stores. The `Store` contract itself is in `@webhook-gateway/core` (every plugin reads a store);
 * prove an implementation with `storeContract` from `@webhook-gateway/core/testing`.
 */

// A new row, the supersede rule, the JSON a store journals, the attempt log's steps.
export { queuedRecord, journalJson, isSupersedable } from './delivery.js';
// A coalescing accept's wait and count, from the rows it superseded (a route's `coalesce`).
export { coalescedTiming, type CoalescedRow, type CoalesceWait } from './delivery.js';
export { startAttempt, closeAttempt } from './attempt-log.js';

// The outbox messages a status change writes for its route's subscribers (`Store` on plans).
export {
  lifecycleMessages,
  lifecycleBody,
  wantsLifecycle,
  outboxMessageId,
  type LifecycleFacts,
} from './lifecycle-messages.js';

// The schemas of a row's JSON parts, for rows another process, or an older version, wrote.
export {
  jsonTextSchema,
  deliveryStatusSchema,
  attemptLogSchema,
  agentAccountingSchema,
  lineCommentsSchema,
  reviewConclusionSchema,
  deliverySafetySchema,
} from './delivery-schema.js';
export { findingsSchema } from './findings.js';

// The shared queue and rate limiter a store may bring (`Store.createQueue`, `Store.rateLimiter`).
export type { DeliveryQueue, QueueContext, QueueLimits, Attempt, AttemptOutcome } from './queue.js';
export type { RateLimiter, RateLimitVerdict } from './rate-limit.js';
