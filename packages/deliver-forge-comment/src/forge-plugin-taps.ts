/**
 * The taps a forge plugin over REST (Gitea, Bitbucket) makes besides its targets, alike for each:
 * the review context with its base files kept per plugin and loaded at the first review, and
 * `check: true`'s status, in progress from the attempt's start until the review is out (the
 * target sets that) or the delivery ended without it.
 */
import type {
  DeliveryStateRequest,
  GatewayHooks,
  ReviewContext,
  ReviewContextRequest,
} from '@webhook-gateway/core';
import type { BaseFiles } from './base-files.js';
import { checkIsOn } from './check-output.js';
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
  hooks: Pick<GatewayHooks, 'deliveryWaiting' | 'attemptStarted' | 'deliveryEnded'>,
  plugin: string,
  targets: readonly string[],
  setCheck: (request: DeliveryStateRequest, status: CheckStatus) => Promise<void>,
): void {
  const showsCheck = (request: Pick<DeliveryStateRequest, 'routeConfig'>) =>
    targets.includes(request.routeConfig.deliver) && checkIsOn(request.routeConfig.deliver_extra);
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
