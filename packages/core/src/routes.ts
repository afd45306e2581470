/** Finds the route a request names: a static route of config, else a dynamic subscription. */
import type { LiveConfig } from './config/live.js';
import type { GatewayConfig, RouteConfig } from './config/schema.js';
import { routeSchema } from './config/schema.js';
import type { Store, Subscription } from './store.js';

/** A dynamic subscription as a route (`docs/subscriptions.md`). */
export function subscriptionToRoute(subscription: Subscription): RouteConfig {
  return routeSchema.parse({
    secret: subscription.secret,
    ...(subscription.description ? { description: subscription.description } : {}),
    events: subscription.events,
    ...(subscription.prompt ? { prompt: subscription.prompt } : {}),
    skills: subscription.skills,
    deliver: subscription.deliver,
    deliver_extra: subscription.deliverChatId ? { chat_id: subscription.deliverChatId } : {},
  });
}

export type RouteResolver = (name: string) => Promise<RouteConfig | undefined>;

/** Static routes win over a dynamic subscription of the same name. */
export function createRouteResolver(config: LiveConfig, store: Store): RouteResolver {
  return async (name) => {
    const routes = config.current().platforms.webhook.extra.routes;
    if (Object.prototype.hasOwnProperty.call(routes, name)) return routes[name];
    const subscription = await store.getSubscription(name);
    return subscription ? subscriptionToRoute(subscription) : undefined;
  };
}

/** The secrets a route verifies with: its own, else the global one, as a list. */
export function routeSecrets(route: RouteConfig, config: GatewayConfig): string[] {
  const secret = route.secret ?? config.platforms.webhook.extra.secret;
  if (secret === undefined) return [];
  return Array.isArray(secret) ? secret : [secret];
}
