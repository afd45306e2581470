/** Which routes reconcile, with which forge hook; and the config rules across keys. */
import type { ConfigProblem, GatewayConfig, RouteReconcileConfig } from '@webhook-gateway/core';
import type { ForgeSettings } from '@webhook-gateway/deliver-forge-comment';

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

/**
 * The rules across keys, with their key paths: `hook_id: auto` finds the hook by its URL, which is
 * `extra.public_url` + `/webhooks/<route>`; `hook: app` reads the App's webhook log, which needs
 * `platforms.forge.app`, and the public URL to tell that the App's webhook is this route's (so
 * only one route can have it).
 */
export function reconcileConfigProblems(config: GatewayConfig): ConfigProblem[] {
  const publicUrl = config.platforms.webhook.extra.public_url;
  const problems: ConfigProblem[] = [];
  let appRoute: string | undefined;
  for (const { route, reconcile, keyPath } of reconciledRoutes(config)) {
    if ('hook_id' in reconcile && reconcile.hook_id === 'auto' && publicUrl === undefined) {
      problems.push({
        path: `${keyPath}.hook_id`,
        message:
          'hook_id: auto finds the hook by its URL, which needs platforms.webhook.extra.public_url (the address the forge posts to); set it, or give the hook id',
      });
    }
    if (!('hook' in reconcile)) continue;
    if (!appConfigured(config)) {
      problems.push({
        path: `${keyPath}.hook`,
        message:
          'hook: app reads the GitHub App’s webhook log, and no App is configured: set platforms.forge.app (docs/github-app.md), or name a repository or organization hook',
      });
    }
    if (publicUrl === undefined) {
      problems.push({
        path: `${keyPath}.hook`,
        message:
          'hook: app reads the App’s webhook log when the App’s webhook points at this route, which needs platforms.webhook.extra.public_url (the address the forge posts to)',
      });
    }
    if (appRoute !== undefined) {
      problems.push({
        path: `${keyPath}.hook`,
        message: `the App has one webhook, and route "${appRoute}" already reads its log (hook: app); only the route its webhook points at can`,
      });
    }
    appRoute ??= route;
  }
  return problems;
}

/**
 * Whether `platforms.forge.app` is set. The slice is the deliver-forge-comment plugin's (a declared
 * dependency), validated by it; read from the config here because a `check` has no `settingsOf`.
 */
function appConfigured(config: GatewayConfig): boolean {
  const platforms = config.platforms as { readonly forge?: ForgeSettings };
  return platforms.forge?.app !== undefined;
}

/**
 * `webhook-gateway reconcile --route R` for a route without `reconcile:`: read as the App's route
 * (the pass checks that the App's webhook points at it). Undefined when no App is configured or
 * there is no such route.
 */
export function appRouteCandidate(
  config: GatewayConfig,
  route: string,
): ReconciledRoute | undefined {
  if (!appConfigured(config) || !Object.hasOwn(config.platforms.webhook.extra.routes, route)) {
    return undefined;
  }
  return {
    route,
    reconcile: { hook: 'app' },
    keyPath: `platforms.webhook.extra.routes.${route}.reconcile`,
  };
}

/** The URL a route's hook posts to. */
export function hookUrlOf(publicUrl: string, route: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/webhooks/${encodeURIComponent(route)}`;
}
