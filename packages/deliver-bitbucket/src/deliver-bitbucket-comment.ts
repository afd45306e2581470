/**
 * The `bitbucket_comment` target: the answer as a comment on a Bitbucket Cloud pull request, split
 * at the comment limit; with `deliver_extra.mode: update`, the route's one living comment, found
 * again by its (hidden) marker.
 */
import type { DeliverRequest } from '@webhook-gateway/core';
import {
  commentBodies,
  commentMode,
  livingPartLimit,
  updateLivingComment,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { withBuildStatus } from './commit-status.js';
import { connectBitbucket } from './connect.js';
import { bitbucketLivingCommentApi } from './living-comment.js';
import type { BitbucketSettings } from './settings.js';
import { BITBUCKET_COMMENT_TARGET } from './target-names.js';

/**
 * Bitbucket documents no length limit for a comment; the gateway splits at 32,768 characters,
 * less room for the markers it rewrites as link definitions (`hideMarkers`).
 */
export const BITBUCKET_COMMENT_LIMIT = 32_768 - 64;

/** Posts (or, with `mode: update`, edits) the answer; throws so the worker retries. */
export async function deliverBitbucketComment(
  request: DeliverRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
): Promise<void> {
  const target = BITBUCKET_COMMENT_TARGET;
  const mode = commentMode(target, request.extra);
  const { api, pullRequest } = connectBitbucket(request, settings, options, target);
  const where = { target, repo: pullRequest.repo, pr_number: pullRequest.id };
  await withBuildStatus(request, api, pullRequest, target, async () => {
    const deliveryId = request.delivery.deliveryId;
    if (mode === 'update') {
      const route = request.delivery.route;
      const outcome = await updateLivingComment(
        bitbucketLivingCommentApi(api, pullRequest, settings.bot),
        route,
        commentBodies(request.answer, livingPartLimit(BITBUCKET_COMMENT_LIMIT, route), deliveryId),
      );
      request.log.info({ ...where, ...outcome }, 'updated the living pull request comment');
      return [];
    }
    const bodies = commentBodies(request.answer, BITBUCKET_COMMENT_LIMIT, deliveryId);
    for (const body of bodies) await api.postComment(pullRequest.repo, pullRequest.id, body);
    request.log.info(
      { ...where, comments: bodies.length },
      'posted the answer as a pull request comment',
    );
    // A comment puts no remark on its line: the check lists them all in its summary.
    return [];
  });
}
