/**
 * The `bitbucket_comment` target: the answer as a comment on a Bitbucket Cloud or Data Center
 * pull request, split at that Bitbucket's comment limit; with `deliver_extra.mode: update`, the
 * route's one living comment, found again by its (hidden) marker.
 */
import type { DeliverRequest, DeliveryStateRequest } from '@webhook-gateway/core';
import {
  commentBodies,
  commentMode,
  livingPartLimit,
  updateLivingComment,
  type LivingCommentReach,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { withBuildStatus } from './commit-status.js';
import { connectBitbucket, hookDelivery } from './connect.js';
import type { BitbucketSettings } from './settings.js';
import { BITBUCKET_COMMENT_TARGET } from './target-names.js';

/** Posts (or, with `mode: update`, edits) the answer; throws so the worker retries. */
export async function deliverBitbucketComment(
  request: DeliverRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
): Promise<void> {
  const target = BITBUCKET_COMMENT_TARGET;
  const mode = commentMode(target, request.extra);
  const delivery = connectBitbucket(request, settings, options, target);
  const { calls, pullRequest } = delivery;
  const limit = calls.commentLimit;
  const where = { target, repo: pullRequest.repo, pr_number: pullRequest.id };
  await withBuildStatus(request, delivery, target, async () => {
    const deliveryId = request.delivery.deliveryId;
    if (mode === 'update') {
      const route = request.delivery.route;
      const outcome = await updateLivingComment(
        calls.livingComments(delivery.bot),
        route,
        commentBodies(request.answer, livingPartLimit(limit, route), deliveryId),
      );
      request.log.info({ ...where, ...outcome }, 'updated the living pull request comment');
      return [];
    }
    const bodies = commentBodies(request.answer, limit, deliveryId);
    for (const body of bodies) await calls.postComment(body);
    request.log.info(
      { ...where, comments: bodies.length },
      'posted the answer as a pull request comment',
    );
    // A comment puts no remark on its line: the check lists them all in its summary.
    return [];
  });
}

/**
 * The route's living comment on the delivery's pull request, on the Bitbucket it is on, for a
 * hook (`extra` is `deliver_extra` rendered against the payload); undefined while that
 * Bitbucket's settings lack the token or address.
 */
export function bitbucketLivingComment(
  request: DeliveryStateRequest,
  extra: Record<string, unknown>,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
): LivingCommentReach | undefined {
  const delivery = hookDelivery(request, extra, settings, options, BITBUCKET_COMMENT_TARGET);
  if (delivery === undefined) return undefined;
  const { calls, bot } = delivery;
  return { api: calls.livingComments(bot), limit: calls.commentLimit };
}
