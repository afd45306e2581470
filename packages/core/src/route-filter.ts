/** The routing rules of a route: `events`, `actions` and `filters` (pure, unit-tested). */
import type { RouteConfig } from './config/schema.js';
import { isMissing, lookupPath, type JsonObject } from './template.js';

export type IgnoreReason = 'event' | 'action' | 'filter';

/** True when the event is listed; the altforge's `object_kind` (`merge_request`) also matches. */
export function eventMatches(
  events: readonly string[],
  event: string,
  payload: JsonObject,
): boolean {
  if (events.length === 0) return true;
  if (events.includes(event)) return true;
  return typeof payload.object_kind === 'string' && events.includes(payload.object_kind);
}

function valueMatches(actual: unknown, allowed: unknown): boolean {
  if (actual === allowed) return true;
  // `pull_request.number: "42"` in YAML still matches the number 42, and the reverse.
  const scalar = (v: unknown): boolean =>
    typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  return scalar(actual) && scalar(allowed) && String(actual) === String(allowed);
}

/** Why a delivery is ignored by its route's rules, or undefined to keep it. */
export function routeIgnoreReason(
  route: Pick<RouteConfig, 'events' | 'actions' | 'filters'>,
  event: string,
  action: string | null,
  payload: JsonObject,
): IgnoreReason | undefined {
  if (!eventMatches(route.events, event, payload)) return 'event';
  if (route.actions.length > 0 && (action === null || !route.actions.includes(action)))
    return 'action';
  for (const [path, expected] of Object.entries(route.filters)) {
    const actual = lookupPath(payload, path);
    if (isMissing(actual)) return 'filter';
    const allowed = Array.isArray(expected) ? expected : [expected];
    if (!allowed.some((value) => valueMatches(actual, value))) return 'filter';
  }
  return undefined;
}
