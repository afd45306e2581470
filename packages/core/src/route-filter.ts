/**
 * The routing rules of a route: `events`, `actions`, `filters`, the loop guard and `commands`
 * (pure but for the filters' regex time limit; unit-tested).
 */
import { deliveryCommand, isOwnComment, sentByBot } from './comment-events.js';
import type { RouteConfig } from './config/schema.js';
import { evaluateFilters, type FilterEvaluation, type InFileValues } from './filter-verdict.js';
import type { FilterInput } from './filter-values.js';
import type { JsonObject } from './template.js';

export type IgnoreReason = 'event' | 'action' | 'filter' | 'self' | 'bot' | 'command';

/**
 * True when the event is listed; the altforge's `object_kind` (`merge_request`) also matches. A
 * route without `events` takes every event but the forge's `ping`, which it must list.
 */
function eventMatches(events: readonly string[], event: string, payload: JsonObject): boolean {
  if (events.length === 0) return event !== 'ping';
  if (events.includes(event)) return true;
  return typeof payload.object_kind === 'string' && events.includes(payload.object_kind);
}

type RouteRules = Pick<RouteConfig, 'events' | 'actions' | 'filters'> &
  Partial<Pick<RouteConfig, 'commands' | 'allow_bots'>>;

/** What the rules read of a delivery: its event, action, payload and headers. */
export interface RuleInput extends FilterInput {
  action: string | null;
}

const NO_FILES: InFileValues = () => [];

/** Why the rules ignore a delivery (none: kept), and the filters' evaluation when they ran. */
export interface RouteVerdict {
  reason?: IgnoreReason;
  filters?: FilterEvaluation;
}

/**
 * The rules' verdict on a delivery. `inFile` gives the values of the `in_file` lists (loaded
 * beforehand); `filters`, when given, is this delivery's evaluation already made (`filters
 * test` prints it), so the regexes do not run, and spend their time limit, twice.
 */
export function routeVerdict(
  route: RouteRules,
  input: RuleInput,
  inFile: InFileValues = NO_FILES,
  filters?: FilterEvaluation,
): RouteVerdict {
  const { event, action, payload } = input;
  if (!eventMatches(route.events, event, payload)) return { reason: 'event' };
  if (route.actions.length > 0 && (action === null || !route.actions.includes(action)))
    return { reason: 'action' };
  const evaluation = filters ?? evaluateFilters(route.filters, input, inFile);
  if (!evaluation.passed) return { reason: 'filter', filters: evaluation };
  // Loop guard: the gateway never answers a comment it posted (its marker; its account is
  // known only to deliver-forge-comment, which asks the same question on `filter`).
  if (isOwnComment(event, payload)) return { reason: 'self', filters: evaluation };
  const commands = route.commands ?? [];
  if (commands.length > 0) {
    if (!route.allow_bots && sentByBot(payload)) return { reason: 'bot', filters: evaluation };
    if (!deliveryCommand(commands, event, payload))
      return { reason: 'command', filters: evaluation };
  }
  return { filters: evaluation };
}

/** Why a delivery is ignored by its route's rules, or undefined to keep it. */
export function routeIgnoreReason(
  route: RouteRules,
  input: RuleInput,
  inFile: InFileValues = NO_FILES,
): IgnoreReason | undefined {
  return routeVerdict(route, input, inFile).reason;
}
