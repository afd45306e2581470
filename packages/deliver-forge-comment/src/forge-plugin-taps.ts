/**
 * The taps a forge plugin over REST (Gitea, Bitbucket) makes besides its targets, alike for each:
 * the review context with its base files kept per plugin and loaded at the first review,
 * `check: true`'s status, in progress from the attempt's start until the review is out (the
 * target sets that) or the delivery ended without it, and on command routes the commenter's
 * permission and the loop guard.
 */
import {
  isCommandEvent,
  isCommentEvent,
  type AdmitRefusal,
  type AdmitRequest,
  type DeliveryStateRequest,
  type FilterRequest,
  type GatewayHooks,
  type JsonObject,
  type ReviewContext,
  type ReviewContextRequest,
  type RouteConfig,
} from '@webhook-gateway/core';
import type { BaseFiles } from './base-files.js';
import { checkIsOn } from './check-output.js';
import { PermissionCache } from './command-admission.js';
import {
  endWithoutReview,
  PENDING_STATUS,
  queuedStatus,
  type CheckStatus,
} from './check-status.js';

/**
 * Taps `reviewContext` for plugin `plugin` with `prepare`, giving it the plugin's base files
 * (made, with their cache, at the first review).
 *
 * @example
 * tapReviewContext(hooks, NAME, (request, baseFiles) => prepare(request, settings, baseFiles));
 */
export function tapReviewContext(
  hooks: Pick<GatewayHooks, 'reviewContext'>,
  plugin: string,
  prepare: (
    request: ReviewContextRequest,
    baseFiles: BaseFiles,
  ) => Promise<ReviewContext | undefined>,
): void {
  let baseFiles: BaseFiles | undefined;
  hooks.reviewContext.tapPromise(plugin, async (request) => {
    const { BaseFiles } = await import('./base-files.js');
    baseFiles ??= new BaseFiles();
    return prepare(request, baseFiles);
  });
}

/**
 * Taps `deliveryWaiting`, `attemptStarted` and `deliveryEnded` for plugin `plugin`: on a route
 * delivering to one of `targets` with `check: true`, `setCheck` shows the delivery's place while
 * it waits in the queue, marks the check pending, then ends it when the delivery ended without
 * its review. `setCheck` never throws (a status is never worth a failed attempt).
 */
export function tapCheckStatus(
  hooks: Pick<
    GatewayHooks,
    'routeShowsWaiting' | 'deliveryWaiting' | 'attemptStarted' | 'deliveryEnded'
  >,
  plugin: string,
  targets: readonly string[],
  setCheck: (request: DeliveryStateRequest, status: CheckStatus) => Promise<void>,
): void {
  const routeShowsCheck = (route: RouteConfig) =>
    targets.includes(route.deliver) && checkIsOn(route.deliver_extra);
  const showsCheck = (request: Pick<DeliveryStateRequest, 'routeConfig'>) =>
    routeShowsCheck(request.routeConfig);
  hooks.routeShowsWaiting.tap(plugin, (route) => (routeShowsCheck(route) ? true : undefined));
  hooks.deliveryWaiting.tapPromise(plugin, async (request) => {
    if (!showsCheck(request)) return;
    const credentials = await request.credentials();
    await setCheck({ ...request, credentials }, queuedStatus(request.standing));
  });
  hooks.attemptStarted.tapPromise(plugin, async (request) => {
    if (showsCheck(request)) await setCheck(request, PENDING_STATUS);
  });
  hooks.deliveryEnded.tapPromise(plugin, async (request) => {
    if (showsCheck(request)) await setCheck(request, endWithoutReview(request));
  });
}

/** What a forge plugin brings to `tapCommandPermission`: how it tells its deliveries, and asks. */
export interface CommandPermissionLookup {
  /** True for a delivery from this plugin's forge (its `authScheme`, else its event or payload). */
  isSender(
    delivery: { authScheme?: string; event: string; payload: JsonObject },
    deliver: string,
  ): boolean;
  /** The verdict on a command comment from this forge, its answers kept in `cache`. */
  check(request: AdmitRequest, cache: PermissionCache): Promise<AdmitRefusal | undefined>;
  /** The loop guard: true for a comment the token's own account wrote. */
  isOwn(request: FilterRequest): Promise<boolean>;
}

/**
 * Taps `admit` and `filter` for plugin `plugin` on command routes: a command comment from this
 * forge is admitted by `lookup.check` (in the worker, before the agent runs), and on the routes
 * where a loop can start (command routes, and those delivering to one of `targets`) a comment
 * the token's own account wrote is ignored as `self`. Other forges' deliveries are left to
 * their plugins.
 *
 * @example tapCommandPermission(hooks, NAME, GITEA_TARGETS, { isSender, check, isOwn })
 */
export function tapCommandPermission(
  hooks: Pick<GatewayHooks, 'admit' | 'filter'>,
  plugin: string,
  targets: readonly string[],
  lookup: CommandPermissionLookup,
): void {
  const permissions = new PermissionCache();
  hooks.admit.tapPromise(plugin, async (request) => {
    const { delivery, routeConfig } = request;
    if ((routeConfig.commands ?? []).length === 0) return undefined;
    if (!lookup.isSender(delivery, routeConfig.deliver)) return undefined;
    if (!isCommandEvent(delivery.event, delivery.payload)) return undefined;
    return lookup.check(request, permissions);
  });
  const mayLoop = (route: RouteConfig) =>
    (route.commands ?? []).length > 0 || targets.includes(route.deliver);
  hooks.filter.tapPromise(plugin, async (request) => {
    const { routeConfig, event, payload } = request;
    if (!mayLoop(routeConfig) || !isCommentEvent(event, payload)) return undefined;
    if (!lookup.isSender(request, routeConfig.deliver)) return undefined;
    return (await lookup.isOwn(request)) ? { reason: 'self' } : undefined;
  });
}
