/** Which routes reconcile, with which forge hook; and the config rules across keys. */
import type { ConfigProblem, GatewayConfig, RouteReconcileConfig } from '@webhook-gateway/core';

export interface ReconciledRoute {
  route: string;
  reconcile: RouteReconcileConfig;
  /** `platforms.webhook.extra.routes.<route>.reconcile`. */
  keyPath: string;
}

/** Seconds between passes when a route reconciles and `extra.reconcile_interval_s` is unset. */
export const DEFAULT_RECONCILE_INTERVAL_S = 600;

export function reconciledRoutes(config: GatewayConfig): ReconciledRoute[] {
  return Object.entries(config.platforms.webhook.extra.routes).flatMap(([route, settings]) =>
    settings.reconcile === undefined
      ? []
      : [
          {
            route,
            reconcile: settings.reconcile,
            keyPath: `platforms.webhook.extra.routes.${route}.reconcile`,
          },
        ],
  );
}

/** The pass interval (ms), or undefined when no route reconciles. */
export function reconcileIntervalMs(config: GatewayConfig): number | undefined {
  if (reconciledRoutes(config).length === 0) return undefined;
  const seconds = config.platforms.webhook.extra.reconcile_interval_s;
  return (seconds ?? DEFAULT_RECONCILE_INTERVAL_S) * 1000;
}

/** `hook_id: auto` finds the hook by its URL, which is `extra.public_url` + `/webhooks/<route>`. */
export function reconcileConfigProblems(config: GatewayConfig): ConfigProblem[] {
  const publicUrl = config.platforms.webhook.extra.public_url;
  return reconciledRoutes(config)
    .filter(({ reconcile }) => reconcile.hook_id === 'auto' && publicUrl === undefined)
    .map(({ keyPath }) => ({
      path: `${keyPath}.hook_id`,
      message:
        'hook_id: auto finds the hook by its URL, which needs platforms.webhook.extra.public_url (the address the forge posts to); set it, or give the hook id',
    }));
}

/** The URL a route's hook posts to. */
export function hookUrlOf(publicUrl: string, route: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/webhooks/${encodeURIComponent(route)}`;
}
