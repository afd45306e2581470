/**
 * The tap every forge plugin with a `mode: update` comment target makes (gh, glab, Gitea,
 * Bitbucket): a queued review's place at the top of the route's living comment. Apart from the
 * check's taps, so a gateway with no check loads none of the check's code for it.
 */
import {
  errorMessage,
  renderDeliverExtra,
  type DeliveryStateRequest,
  type GatewayHooks,
  type RouteConfig,
} from '@webhook-gateway/core';
import { commentMode, type LivingCommentApi } from './living-comment.js';

/** A route's living comment as a hook reaches it: the forge's calls and its longest comment. */
export interface LivingCommentReach {
  api: LivingCommentApi;
  limit: number;
}

/**
 * Taps `deliveryWaiting` for plugin `plugin`: on a route delivering to one of `targets` with
 * `deliver_extra.mode: update`, the queued review's place goes at the top of the route's living
 * comment on the pull request, when that comment exists (`living-comment-waiting.ts`). `reach`
 * gives the comment's calls (`extra` is `deliver_extra` rendered against the payload), or
 * undefined when the forge is not set up. A failure is a warning: a status line is never worth
 * a failed delivery, nor another tap's status.
 */
export function tapWaitingLivingComment(
  hooks: Pick<GatewayHooks, 'routeShowsWaiting' | 'deliveryWaiting'>,
  plugin: string,
  targets: readonly string[],
  reach: (
    request: DeliveryStateRequest,
    extra: Record<string, unknown>,
  ) => Promise<LivingCommentReach | undefined>,
): void {
  // Asked before rendering anything: a route without a mode posts new comments.
  const mayUpdate = (route: RouteConfig) =>
    targets.includes(route.deliver) && route.deliver_extra.mode !== undefined;
  hooks.routeShowsWaiting.tap(plugin, (route) => (mayUpdate(route) ? true : undefined));
  hooks.deliveryWaiting.tapPromise(plugin, async (request) => {
    const { routeConfig, delivery, log } = request;
    const target = routeConfig.deliver;
    if (!mayUpdate(routeConfig)) return;
    try {
      const extra = renderDeliverExtra(routeConfig.deliver_extra, delivery.payload);
      if (commentMode(target, extra) !== 'update') return;
      const found = await reach({ ...request, credentials: await request.credentials() }, extra);
      if (found === undefined) return;
      const { showWaitingInLivingComment } = await import('./living-comment-waiting.js');
      const shown = await showWaitingInLivingComment(
        found.api,
        delivery.route,
        delivery.deliveryId,
        request.standing,
        found.limit,
      );
      log.info({ target, shown }, "a queued review's place on the living comment");
    } catch (error) {
      log.warn(
        { target, err: errorMessage(error) },
        "could not show a queued review's place on the living comment",
      );
    }
  });
}
