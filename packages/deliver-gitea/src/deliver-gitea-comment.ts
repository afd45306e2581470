/**
 * The `gitea_comment` target: the answer as a comment on a Gitea or Forgejo pull request (its
 * issue's comments), split at the comment limit; with `deliver_extra.mode: update`, the route's
 * one living comment, found again by its marker.
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
import { withCommitStatus } from './commit-status.js';
import { connectGitea } from './connect.js';
import { giteaApi } from './gitea-api.js';
import { giteaLivingCommentApi } from './living-comment.js';
import { resolveGiteaPullRequest } from './pull-request.js';
import { giteaConnection, type GiteaSettings } from './settings.js';
import { GITEA_COMMENT_TARGET } from './target-names.js';

/**
 * Gitea documents no length limit for a comment; the gateway splits at the forge's 65,536
 * characters so each part stays a comment people read.
 */
export const GITEA_COMMENT_LIMIT = 65_536;

/** Posts (or, with `mode: update`, edits) the answer; throws so the worker retries. */
export async function deliverGiteaComment(
  request: DeliverRequest,
  settings: GiteaSettings,
  options: HttpTargetOptions,
): Promise<void> {
  const target = GITEA_COMMENT_TARGET;
  const mode = commentMode(target, request.extra);
  const { api, pullRequest } = connectGitea(request, settings, options, target);
  const where = { target, repo: pullRequest.repo, pr_number: pullRequest.number };
  await withCommitStatus(request, api, pullRequest, target, async () => {
    const deliveryId = request.delivery.deliveryId;
    if (mode === 'update') {
      const route = request.delivery.route;
      const outcome = await updateLivingComment(
        giteaLivingCommentApi(api, pullRequest, settings.bot),
        route,
        commentBodies(request.answer, livingPartLimit(GITEA_COMMENT_LIMIT, route), deliveryId),
      );
      request.log.info({ ...where, ...outcome }, 'updated the living pull request comment');
      return [];
    }
    const bodies = commentBodies(request.answer, GITEA_COMMENT_LIMIT, deliveryId);
    for (const body of bodies)
      await api.postIssueComment(pullRequest.repo, pullRequest.number, body);
    request.log.info(
      { ...where, comments: bodies.length },
      'posted the answer as a pull request comment',
    );
    // A comment puts no remark on its line: the check lists them all in its summary.
    return [];
  });
}

/**
 * The route's living comment on the delivery's pull request, for a hook (`extra` is
 * `deliver_extra` rendered against the payload); undefined while `platforms.gitea` lacks its
 * address or token.
 */
export function giteaLivingComment(
  request: DeliveryStateRequest,
  extra: Record<string, unknown>,
  settings: GiteaSettings,
  options: HttpTargetOptions,
): LivingCommentReach | undefined {
  const target = GITEA_COMMENT_TARGET;
  const found = giteaConnection(settings);
  if (!found.ok) return undefined;
  const pullRequest = resolveGiteaPullRequest(target, extra, request.delivery.payload);
  const { signal, log } = request;
  const api = giteaApi({ connection: found.connection, options, signal, log, target });
  return { api: giteaLivingCommentApi(api, pullRequest, settings.bot), limit: GITEA_COMMENT_LIMIT };
}
