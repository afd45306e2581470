/**
 * The `gitea_review` target: the answer as one pull request review (`event: COMMENT`) whose
 * comments sit on the lines the agent named. Lines the pull request's diff does not show are
 * moved into the review's body as text before posting (and all of them, should Gitea still refuse
 * the review): a comment is never dropped, and one bad line never loses the review.
 */
import type { DeliverRequest, LineComment } from '@webhook-gateway/core';
import {
  bodyWithMovedComments,
  commentBodies,
  diffLinesByPath,
  markedLineCommentBody,
  splitByDiff,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { withCommitStatus } from './commit-status.js';
import { connectGitea } from './connect.js';
import { GITEA_COMMENT_LIMIT } from './deliver-gitea-comment.js';
import { GiteaApiError } from './gitea-api.js';
import type { GiteaSettings } from './settings.js';
import { GITEA_REVIEW_TARGET } from './target-names.js';

/** How a review went out, for the log and tests. */
export interface GiteaReviewOutcome {
  onLines: number;
  /** Comments moved into the review's body (their line is not in the diff). */
  moved: number;
  /** Pull request comments holding the rest of a summary too long for one review body. */
  extraComments: number;
}

/** A refusal of the review's content (not of the token or the pull request). */
function isRefused(error: unknown): boolean {
  return error instanceof GiteaApiError && (error.status === 422 || error.status === 400);
}

/** Posts the review; throws so the worker retries (a retry posts the review again). */
export async function deliverGiteaReview(
  request: DeliverRequest,
  settings: GiteaSettings,
  options: HttpTargetOptions,
): Promise<GiteaReviewOutcome> {
  const target = GITEA_REVIEW_TARGET;
  const { api, pullRequest } = connectGitea(request, settings, options, target);
  const { repo, number, headSha } = pullRequest;
  const deliveryId = request.delivery.deliveryId;
  const comments = request.lineComments;
  const bodies = (onLines: readonly LineComment[]): string[] =>
    commentBodies(
      bodyWithMovedComments(
        request.summary,
        comments.filter((comment) => !onLines.includes(comment)),
      ),
      GITEA_COMMENT_LIMIT,
      deliveryId,
    );
  const postReview = (onLines: readonly LineComment[]) =>
    api.postReview(repo, number, {
      event: 'COMMENT',
      body: bodies(onLines)[0] ?? '',
      ...(headSha ? { commit_id: headSha } : {}),
      comments: onLines.map((comment) => ({
        path: comment.path,
        new_position: comment.line,
        body: markedLineCommentBody(comment, deliveryId),
      })),
    });

  let outcome: GiteaReviewOutcome = { onLines: 0, moved: 0, extraComments: 0 };
  await withCommitStatus(request, api, pullRequest, target, async () => {
    let onLines: readonly LineComment[] =
      comments.length === 0
        ? []
        : splitByDiff(comments, diffLinesByPath(await api.pullRequestDiff(repo, number))).inDiff;
    try {
      await postReview(onLines);
    } catch (error) {
      if (!isRefused(error) || onLines.length === 0) throw error;
      request.log.warn(
        { target, repo, pr_number: number },
        'Gitea refused the review with its line comments; posting them in its body instead',
      );
      onLines = [];
      await postReview(onLines);
    }
    const rest = bodies(onLines).slice(1);
    for (const body of rest) await api.postIssueComment(repo, number, body);
    outcome = {
      onLines: onLines.length,
      moved: comments.length - onLines.length,
      extraComments: rest.length,
    };
    return onLines;
  });
  request.log.info(
    { target, repo, pr_number: number, ...outcome },
    'posted the answer as a pull request review',
  );
  return outcome;
}
