/**
 * A reconcile pass over the routes that name a forge hook: each route's hook log is read back to
 * its window and what never reached the journal is asked for again. A route that fails is
 * reported in its counts; the others go on.
 */
import {
  errorMessage,
  type GatewayConfig,
  type ReconcileEvent,
  type Store,
} from '@webhook-gateway/core';
import type { AltforgeSettings, ForgeSettings } from '@webhook-gateway/deliver-forge-comment';
import { appApi } from '@webhook-gateway/deliver-forge-comment/app';
import {
  altforgeEnv,
  forgeEnv,
  forgeHostOf,
} from '@webhook-gateway/deliver-forge-comment/delivery';
import { altforgeDeliveryLog, ALTFORGE_HOOK_RIGHT } from './altforge-log.js';
import { APP_HOOK, APP_HOOK_RIGHT, APP_SIGN_IN, appApiCaller, checkAppRoute } from './app-log.js';
import type { DeliveryLog } from './delivery-log.js';
import { ReconcileFailure, type FailureContext } from './failures.js';
import { callForgeApi } from './forge-api.js';
import {
  findForgeHookId,
  forgeDeliveryLog,
  forgeHookPath,
  FORGE_HOOK_RIGHT,
  type ForgeOwner,
} from './forge-log.js';
import type { ApiCaller } from './hook-api.js';
import { reconcileRoute, type RouteReconcileResult } from './reconcile-route.js';
import {
  appRouteCandidate,
  hookUrlOf,
  reconciledRoutes,
  type ReconciledRoute,
} from './reconciled-routes.js';

const HOUR_MS = 3_600_000;
/** How long each forge keeps its delivery log: nothing older can be redelivered. */
export const FORGE_RETENTION_MS = 3 * 24 * HOUR_MS;
export const ALTFORGE_RETENTION_MS = 7 * 24 * HOUR_MS;
/** A pass without a cursor (the first one) reads this far back. */
export const FIRST_PASS_MS = 24 * HOUR_MS;
/** A pass with a cursor reads this much before it too: attempts the forge logged late. */
export const CURSOR_OVERLAP_MS = 5 * 60_000;

/** How far back each route's log is read. */
export type PassWindow =
  /** `--since`: back to this time. */
  | { sinceMs: number }
  /** In the gateway: from the hook's cursor (minus the overlap), else `FIRST_PASS_MS`. */
  | { fromCursor: true };

/**
 * `platforms.forge` and `platforms.altforge`, owned by the deliver-forge-comment plugin: the
 * reconcile plugin reads them with `settingsOf` (a declared dependency), a program with
 * `settingsIn(forgeCommentPlugin, config)`.
 */
export interface ForgeSlices {
  forge: ForgeSettings;
  altforge: AltforgeSettings;
}

export interface PassOptions {
  config: GatewayConfig;
  /** The forges' settings (their CLI and token) that the hook logs are read with. */
  forges: ForgeSlices;
  store: Store;
  /** The gateway home: where a relative `platforms.forge.app.private_key_file` is found. */
  home?: string;
  window: PassWindow;
  /**
   * Only these routes (`--route`); all reconciled routes when absent. With
   * `platforms.forge.app`, a route named here without `reconcile:` is read as the App's route
   * (when the App's webhook points at it).
   */
  routes?: readonly string[];
  dryRun?: boolean;
  now?: () => number;
  signal?: AbortSignal;
}

export interface PassResult extends ReconcileEvent {
  routes: RouteReconcileResult[];
  /** The longest wait a rate-limited route asked for (ms). */
  retryAfterMs?: number;
}

interface Cursor {
  newestMs: number;
}

function parseCursor(text: string | undefined): Cursor | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && 'newestMs' in value) {
      const newestMs = value.newestMs;
      if (typeof newestMs === 'number' && Number.isFinite(newestMs)) return { newestMs };
    }
  } catch {
    // a damaged cursor: read the whole first-pass window again
  }
  return undefined;
}

/** The hook's log, bound to its CLI or the App (and, for `hook_id: auto`, found by URL first). */
async function logOf(
  entry: ReconciledRoute,
  options: PassOptions,
  now: () => number,
): Promise<{ log: DeliveryLog; host: string; retentionMs: number }> {
  const { reconcile } = entry;
  const { config, forges: platforms, signal } = options;
  if ('project' in reconcile) {
    const settings = platforms.altforge;
    const { api, context } = forgeAccess(settings, {
      settingsKey: 'platforms.altforge',
      env: altforgeEnv(settings),
      right: ALTFORGE_HOOK_RIGHT,
      keyPath: entry.keyPath,
      signal,
    });
    return {
      log: altforgeDeliveryLog({
        project: reconcile.project,
        hookId: reconcile.hook_id,
        api,
        context,
        now,
      }),
      host: settings.host ?? 'gitlab.com',
      retentionMs: ALTFORGE_RETENTION_MS,
    };
  }
  const settings = platforms.forge;
  const host = forgeHostOf(settings) ?? 'github.com';
  if ('hook' in reconcile) {
    return { log: await appLogOf(entry, options, now), host, retentionMs: FORGE_RETENTION_MS };
  }
  // A repository's or organization's hook is read with gh's own login or platforms.forge.token,
  // as without the App: the App's JWT reads the App's own webhook only.
  const { app: _app, ...cliSettings } = settings;
  const { api, context } = forgeAccess(settings, {
    settingsKey: 'platforms.forge',
    env: forgeEnv(cliSettings),
    right: FORGE_HOOK_RIGHT,
    keyPath: entry.keyPath,
    signal,
  });
  const owner: ForgeOwner = 'repo' in reconcile ? { repo: reconcile.repo } : { org: reconcile.org };
  let hookId: number;
  if (reconcile.hook_id === 'auto') {
    const publicUrl = config.platforms.webhook.extra.public_url;
    if (publicUrl === undefined) {
      throw new ReconcileFailure(
        'hook-not-found',
        `${entry.keyPath}.hook_id is auto, which needs platforms.webhook.extra.public_url`,
      );
    }
    hookId = await findForgeHookId({
      owner,
      url: hookUrlOf(publicUrl, entry.route),
      api,
      context,
      now,
    });
  } else hookId = reconcile.hook_id;
  return {
    log: forgeDeliveryLog({ hook: forgeHookPath(owner, hookId), api, context, now }),
    host,
    retentionMs: FORGE_RETENTION_MS,
  };
}

/**
 * The App's webhook log, called as the App once its webhook is known to point at this route
 * (`GET /app/hook/config`).
 */
async function appLogOf(
  entry: ReconciledRoute,
  options: PassOptions,
  now: () => number,
): Promise<DeliveryLog> {
  const settings = options.forges.forge;
  if (!settings.app) {
    throw new ReconcileFailure(
      'not-authenticated',
      `${entry.keyPath} reads the GitHub App's webhook log (hook: app), and platforms.forge.app is not set`,
    );
  }
  const publicUrl = options.config.platforms.webhook.extra.public_url;
  if (publicUrl === undefined) {
    throw new ReconcileFailure(
      'hook-not-found',
      `route "${entry.route}" is read as the App's route, which needs platforms.webhook.extra.public_url to tell that the App's webhook points at it`,
    );
  }
  let app;
  try {
    app = appApi(settings, options.home ?? process.cwd());
  } catch (error) {
    throw new ReconcileFailure('not-authenticated', errorMessage(error));
  }
  const api = appApiCaller(app, options.signal);
  const context = {
    cli: 'the App',
    settingsKey: 'platforms.forge.app',
    keyPath: entry.keyPath,
    right: APP_HOOK_RIGHT,
    signIn: APP_SIGN_IN,
  };
  await checkAppRoute({
    route: entry.route,
    url: hookUrlOf(publicUrl, entry.route),
    api,
    context,
    now,
  });
  return forgeDeliveryLog({ hook: APP_HOOK, api, context, now });
}

/** How one forge's API is called (its CLI, env and timeout), and what its failures name. */
function forgeAccess(
  settings: { cli: string; timeout_s: number },
  how: {
    settingsKey: string;
    env: Record<string, string>;
    right: string;
    keyPath: string;
    signal: AbortSignal | undefined;
  },
): { api: ApiCaller; context: Omit<FailureContext, 'hook'> } {
  const api: ApiCaller = (method, endpoint) =>
    callForgeApi({
      cli: settings.cli,
      settingsKey: how.settingsKey,
      method,
      endpoint,
      env: how.env,
      timeoutMs: settings.timeout_s * 1000,
      ...(how.signal ? { signal: how.signal } : {}),
    });
  const context = {
    cli: settings.cli,
    settingsKey: how.settingsKey,
    keyPath: how.keyPath,
    right: how.right,
  };
  return { api, context };
}

async function reconcileOne(
  entry: ReconciledRoute,
  options: PassOptions,
  now: () => number,
): Promise<RouteReconcileResult> {
  const { store } = options;
  const { log, host, retentionMs } = await logOf(entry, options, now);
  const cursorName = `reconcile:${host}:${log.hook}`;
  const oldest = now() - retentionMs;
  let sinceMs: number;
  if ('sinceMs' in options.window) sinceMs = options.window.sinceMs;
  else {
    const cursor = parseCursor(await store.readCursor(cursorName));
    sinceMs = cursor ? cursor.newestMs - CURSOR_OVERLAP_MS : now() - FIRST_PASS_MS;
  }
  const result = await reconcileRoute({
    route: entry.route,
    log,
    store,
    sinceMs: Math.max(sinceMs, oldest),
    dryRun: options.dryRun ?? false,
  });
  if (!options.dryRun && result.cursorMs !== undefined) {
    const previous = parseCursor(await store.readCursor(cursorName));
    // A pass reading further back (`--since`) never moves the cursor backwards past what it saw,
    // except to go back before a delivery it could not ask for.
    const keep =
      previous && result.failed === 0
        ? Math.max(previous.newestMs, result.cursorMs)
        : result.cursorMs;
    await store.writeCursor(cursorName, JSON.stringify({ newestMs: keep } satisfies Cursor));
  }
  return result;
}

/**
 * The routes that name their hook (those of `routes` only, when given), then each other route of
 * `routes` that can be the App's.
 */
function routesOfPass(options: PassOptions): ReconciledRoute[] {
  const configured = reconciledRoutes(options.config);
  if (options.routes === undefined) return configured;
  const wanted = new Set(options.routes);
  const named = configured.filter((entry) => wanted.has(entry.route));
  const asApp = [...wanted]
    .filter((route) => !named.some((entry) => entry.route === route))
    .flatMap((route) => appRouteCandidate(options.config, route) ?? []);
  return [...named, ...asApp];
}

/** Runs one pass; never throws for a route's failure (it is in that route's `error`). */
export async function runReconcilePass(options: PassOptions): Promise<PassResult> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const entries = routesOfPass(options);
  const routes: RouteReconcileResult[] = [];
  let retryAfterMs: number | undefined;
  for (const entry of entries) {
    try {
      const result = await reconcileOne(entry, options, now);
      routes.push(result);
      if (result.retryAfterMs !== undefined)
        retryAfterMs = Math.max(retryAfterMs ?? 0, result.retryAfterMs);
    } catch (error) {
      const failure = error instanceof ReconcileFailure ? error : undefined;
      if (failure?.retryAfterMs !== undefined)
        retryAfterMs = Math.max(retryAfterMs ?? 0, failure.retryAfterMs);
      routes.push({
        route: entry.route,
        listed: 0,
        journaled: 0,
        redelivered: 0,
        failed: 0,
        redeliveredGuids: [],
        error: errorMessage(error),
        ...(failure?.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
      });
    }
  }
  return {
    startedAt,
    finishedAt: now(),
    routes,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}
