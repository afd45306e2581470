/**
 * The lifecycle events a delivery can send to `extra.outbound` subscribers, and the journal
 * change each one is (every status of `DELIVERY_STATUSES` but `running` has one):
 *
 * | event | journal change | status after |
 * |---|---|---|
 * | `accepted` | journaled (`Store.accept`) | `queued` |
 * | `failed` | an attempt failed, another follows (`markRetry`) | `queued` |
 * | `dead` | failed for good (`markFailed`) | `failed` |
 * | `delivered` | answer sent (`markDelivered`) | `delivered` |
 * | `silent` | answer `[SILENT]`, nothing sent (`markDelivered`) | `silent` |
 * | `superseded` | ended by a newer delivery (`Store.accept` of that one) | `superseded` |
 * | `denied`, `over_budget`, `skipped` | ended before a run (`markRefused`) | the same |
 */
export const LIFECYCLE_EVENTS = [
  'accepted',
  'delivered',
  'failed',
  'dead',
  'superseded',
  'denied',
  'over_budget',
  'silent',
  'skipped',
] as const;
export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[number];
