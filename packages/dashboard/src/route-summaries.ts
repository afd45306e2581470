/** The routes page's data: every route known to config, subscriptions or the journal, counted. */
import type { GatewayConfig, Store } from '@webhook-gateway/core';
import { countByRoute, DAY_MS } from './route-counts.js';
import type { RouteSummary } from './pages/routes-page.js';

/** The names a route filter offers: config routes, then dynamic subscriptions. */
export async function knownRouteNames(config: GatewayConfig, store: Store): Promise<string[]> {
  const subscriptions = await store.listSubscriptions();
  return [
    ...new Set([
      ...Object.keys(config.platforms.webhook.extra.routes),
      ...subscriptions.map((s) => s.name),
    ]),
  ];
}

/** Each route with its counts of the last 24 h; `complete` is false when the scan hit its limit. */
export async function routeSummaries(
  config: GatewayConfig,
  store: Store,
  options: { now: number; scanLimit: number },
): Promise<{ routes: RouteSummary[]; complete: boolean }> {
  const configured = config.platforms.webhook.extra.routes;
  const subscriptions = new Map((await store.listSubscriptions()).map((s) => [s.name, s]));
  const scanned = await store.list({ limit: options.scanLimit });
  const { byRoute, complete } = countByRoute(scanned, {
    since: options.now - DAY_MS,
    routeNames: [...Object.keys(configured), ...subscriptions.keys()],
    scanLimit: options.scanLimit,
  });
  const routes = [...byRoute].map(([name, counts]): RouteSummary => {
    const route = Object.prototype.hasOwnProperty.call(configured, name)
      ? configured[name]
      : undefined;
    if (route) return { name, kind: 'config', events: route.events, target: route.deliver, counts };
    const subscription = subscriptions.get(name);
    if (subscription) {
      return {
        name,
        kind: 'subscription',
        events: subscription.events,
        target: subscription.deliver,
        counts,
      };
    }
    return { name, kind: 'journal only', events: [], target: null, counts };
  });
  return { routes, complete };
}
