/**
 * The routing rules of a route: `events`, `actions`, `filters`, the loop guard and `commands`
 * (pure, unit-tested).
 */
import { deliveryCommand, isOwnComment, sentByBot } from './comment-events.js';
import type { RouteConfig } from './config/schema.js';
import { isMissing, lookupPath, type JsonObject } from './template.js';

export type IgnoreReason = 'event' | 'action' | 'filter' | 'self' | 'bot' | 'command';

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

type FilterValue = RouteConfig['filters'][string];

/**
 * Whether a payload value passes one filter: one of the allowed values, or, for `{ not: … }`,
 * none of them (a missing path passes a negation: a PR without `draft` is not a draft).
 */
function filterPasses(actual: unknown, expected: FilterValue): boolean {
  const negated = typeof expected === 'object' && expected !== null && !Array.isArray(expected);
  const values = negated ? expected.not : expected;
  const listed = Array.isArray(values) ? values : [values];
  if (isMissing(actual)) return negated;
  const matches = listed.some((value) => valueMatches(actual, value));
  return negated ? !matches : matches;
}

type RouteRules = Pick<RouteConfig, 'events' | 'actions' | 'filters'> &
  Partial<Pick<RouteConfig, 'commands' | 'allow_bots'>>;

/** Why a delivery is ignored by its route's rules, or undefined to keep it. */
export function routeIgnoreReason(
  route: RouteRules,
  event: string,
  action: string | null,
  payload: JsonObject,
): IgnoreReason | undefined {
  if (!eventMatches(route.events, event, payload)) return 'event';
  if (route.actions.length > 0 && (action === null || !route.actions.includes(action)))
    return 'action';
  for (const [path, expected] of Object.entries(route.filters)) {
    if (!filterPasses(lookupPath(payload, path), expected)) return 'filter';
  }
  // Loop guard: the gateway never answers a comment it posted (its marker; its account is
  // known only to deliver-forge-comment, which asks the same question on `filter`).
  if (isOwnComment(event, payload)) return 'self';
  const commands = route.commands ?? [];
  if (commands.length > 0) {
    if (!route.allow_bots && sentByBot(payload)) return 'bot';
    if (!deliveryCommand(commands, event, payload)) return 'command';
  }
  return undefined;
}
