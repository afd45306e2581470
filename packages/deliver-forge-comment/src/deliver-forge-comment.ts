/** The `forge_comment` target: the answer as a comment on a pull request, through `gh`. */
import type { DeliverRequest } from '@webhook-gateway/core';
import { commentBodies } from './comment-bodies.js';
import {
  FORGE_COMMENT_LIMIT,
  FORGE_PROFILE,
  forgeCommentArgv,
  forgeEnv,
  normalizeForgeHost,
} from './forge-cli.js';
import { FORGE_TARGET, resolveForgePullRequest } from './forge-target.js';
import { commentMarker, commentMode, updateForgeComments } from './living-comment.js';
import { postComments } from './post-comments.js';
import type { ForgeSettings } from './settings.js';

/**
 * Runs `gh pr comment <n> --repo <owner/repo> --body-file -` once per comment body, with the
 * plugin's `platforms.forge` settings.
 * Throws a `CommentDeliveryError` (the worker retries) when the target is invalid or gh fails.
 */
export async function deliverForgeComment(
  request: DeliverRequest,
  settings: ForgeSettings,
): Promise<void> {
  const pullRequest = resolveForgePullRequest(request.extra, request.delivery.payload);
  if (commentMode(request.extra) === 'update') {
    const route = request.delivery.route;
    // Room for the marker line on every part.
    const limit = FORGE_COMMENT_LIMIT - commentMarker(route).length - 1;
    const outcome = await updateForgeComments({
      cli: settings.cli,
      env: forgeEnv(settings),
      host: settings.host ? normalizeForgeHost(settings.host) : FORGE_PROFILE.defaultHost,
      timeoutS: settings.timeout_s,
      secrets: settings.token ? [settings.token] : [],
      signal: request.signal,
      pullRequest,
      route,
      bodies: commentBodies(request.answer, limit, request.delivery.deliveryId),
    });
    request.log.info(
      { target: FORGE_TARGET, repo: pullRequest.repo, pr_number: pullRequest.prNumber, ...outcome },
      'updated the living pull request comment',
    );
    return;
  }
  const bodies = commentBodies(request.answer, FORGE_COMMENT_LIMIT, request.delivery.deliveryId);
  await postComments({
    profile: FORGE_PROFILE,
    cli: settings.cli,
    args: forgeCommentArgv(pullRequest),
    env: forgeEnv(settings),
    host: settings.host ? normalizeForgeHost(settings.host) : FORGE_PROFILE.defaultHost,
    timeoutS: settings.timeout_s,
    subject: `pull request #${pullRequest.prNumber} of ${pullRequest.repo}`,
    bodies,
    secrets: settings.token ? [settings.token] : [],
    signal: request.signal,
  });
  request.log.info(
    {
      target: FORGE_TARGET,
      repo: pullRequest.repo,
      pr_number: pullRequest.prNumber,
      comments: bodies.length,
    },
    'posted the answer as a pull request comment',
  );
}
