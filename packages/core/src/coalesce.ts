/**
 * A route's `coalesce` (Hermes' coalescing of bursts): which deliveries belong together, and how
 * long one waits for a newer one. The stores do the rest in the accept's commit, with the
 * supersede machinery: the rendered key is the order key, a newer delivery supersedes the queued
 * ones (never a running attempt) and takes over their burst (`coalescedTiming`).
 */
import {
  DEFAULT_COALESCE_MAX_WAIT_S,
  DEFAULT_COALESCE_WINDOW_S,
  type RouteConfig,
} from './config/schema.js';
import type { CoalesceWait } from './delivery.js';
import { isMissing, lookupPath, renderTemplate, type JsonObject } from './template.js';

/** The `{path}` placeholders of a key template. */
const PLACEHOLDERS = /\{([A-Za-z0-9_.-]+)\}/g;

/** What a coalesced delivery is journaled with. */
export interface CoalescePlan {
  /** `<route>|coalesce|<rendered key>`: deliveries with it run one at a time and coalesce. */
  orderKey: string;
  wait: CoalesceWait;
}

/**
 * The coalescing of one delivery, or undefined when the route does not coalesce or the key names
 * a field this payload lacks (as Hermes: unrelated deliveries must not collapse into one group,
 * so such a delivery runs on its own, without waiting). A bare field (`pull_request.number`)
 * reads as `{pull_request.number}`.
 *
 * @example coalescePlan('ci', { coalesce: { key: '{repository.full_name}#{number}' } }, payload)
 * // { orderKey: 'ci|coalesce|octo/repo#7', wait: { windowMs: 30_000, maxWaitMs: 300_000 } }
 */
export function coalescePlan(
  route: string,
  routeConfig: Pick<RouteConfig, 'coalesce'>,
  payload: JsonObject,
): CoalescePlan | undefined {
  const coalesce = routeConfig.coalesce;
  if (!coalesce) return undefined;
  const template = coalesce.key.includes('{') ? coalesce.key : `{${coalesce.key}}`;
  for (const [, path] of template.matchAll(PLACEHOLDERS)) {
    if (path === undefined || isMissing(lookupPath(payload, path))) return undefined;
  }
  const rendered = renderTemplate(template, payload);
  const windowS = coalesce.window_s ?? coalesce.window_seconds ?? DEFAULT_COALESCE_WINDOW_S;
  const maxWaitS = coalesce.max_wait_s ?? coalesce.max_wait_seconds ?? DEFAULT_COALESCE_MAX_WAIT_S;
  return {
    orderKey: `${route}|coalesce|${rendered}`,
    wait: { windowMs: windowS * 1000, maxWaitMs: maxWaitS * 1000 },
  };
}
