/**
 * Which lifecycle events of a route's deliveries go where (`extra.outbound`), as the stores get
 * it with each status change: the outbox destinations, each with its events.
 */
import { createHash } from 'node:crypto';
import type { GatewayConfig } from './config/schema.js';
import type { LifecycleEvent } from './lifecycle-events.js';

/** One subscriber of a route's events, as a store writes its messages. */
export interface OutboundSubscription {
  /** The outbox destination (`outboundDestination(url)`). */
  readonly destination: string;
  readonly events: readonly LifecycleEvent[];
  /** Whether its events carry the answer's first 1,000 characters. */
  readonly includeAnswer: boolean;
}

/** A route's subscribers: what a status change of one of its deliveries writes to the outbox. */
export interface OutboundPlan {
  readonly subscriptions: readonly OutboundSubscription[];
}

/**
 * The destination key of a subscriber's URL: stable while the URL is, and without the URL's
 * text, which may carry a token in its path.
 *
 * @example outboundDestination('https://ops.example.com/hooks') // 'outbound:3f1c…' (16 hex)
 */
export function outboundDestination(url: string): string {
  return `outbound:${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
}

/** Plans worked out, per config object and route: a reload brings a new config. */
const plansByConfig = new WeakMap<GatewayConfig, Map<string, OutboundPlan | undefined>>();

/**
 * The plan for a route's deliveries under `config`, or undefined when no subscriber hears about
 * the route (the stores then write nothing and read nothing more).
 */
export function outboundPlan(config: GatewayConfig, route: string): OutboundPlan | undefined {
  let plans = plansByConfig.get(config);
  if (!plans) {
    plans = new Map();
    plansByConfig.set(config, plans);
  }
  if (plans.has(route)) return plans.get(route);
  const subscriptions = config.platforms.webhook.extra.outbound
    .filter((entry) => entry.routes === undefined || entry.routes.includes(route))
    .map((entry) => ({
      destination: outboundDestination(entry.url),
      events: entry.events,
      includeAnswer: entry.include_answer,
    }));
  const plan = subscriptions.length > 0 ? { subscriptions } : undefined;
  plans.set(route, plan);
  return plan;
}
