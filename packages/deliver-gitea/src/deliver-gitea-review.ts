/**
 * The `gitea_review` target: the answer as one pull request review (`event: COMMENT`) whose
 * comments sit on the lines the agent named. Lines the pull request's diff does not show are
 * moved into the review's body as text before posting (and all of them, should Gitea still refuse
 * the review): a comment is never dropped, and one bad line never loses the review. With the
 * journal's findings, a finding already posted on the pull request is not posted again, and a
 * fixed one's conversation is resolved where the instance can.
 */
import type { DeliverRequest, FindingCounts, LineComment } from '@webhook-gateway/core';
import {
  bodyWithMovedComments,
  commentBodies,
  diffLinesByPath,
  diffLineTextsByPath,
  findingsJournalOf,
  markedLineCommentBody,
  rememberFindings,
  splitByDiff,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { withCommitStatus } from './commit-status.js';
import { connectGitea } from './connect.js';
import { GITEA_COMMENT_LIMIT } from './deliver-gitea-comment.js';
import { giteaFindingThreads } from './finding-threads.js';
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
  /** What the review did with the findings, when the journal remembers them. */
  findings?: FindingCounts;
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
  // With the journal's findings: only new findings are posted, fixed ones' conversations resolved.
  const journal = findingsJournalOf(request);

  let outcome: GiteaReviewOutcome = { onLines: 0, moved: 0, extraComments: 0 };
  await withCommitStatus(request, api, pullRequest, target, async () => {
    const diff =
      request.lineComments.length === 0 && !journal ? '' : await api.pullRequestDiff(repo, number);
    const lines = diffLineTextsByPath(diff);
    const remembered = journal
      ? await rememberFindings(
          request,
          journal,
          giteaFindingThreads(api, pullRequest, settings.bot),
          lines,
        )
      : undefined;
    const comments = remembered ? remembered.comments : request.lineComments;
    const bodies = (onLines: readonly LineComment[]): string[] =>
      commentBodies(
        bodyWithMovedComments(
          remembered ? remembered.summary : request.summary,
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
          body: markedLineCommentBody(comment, deliveryId, remembered?.fingerprints.get(comment)),
        })),
      });
    // Remembered comments outside the diff are known already: they go into the body at once.
    let onLines: readonly LineComment[] = remembered
      ? comments.filter((comment) => remembered.fingerprints.has(comment))
      : splitByDiff(comments, diffLinesByPath(diff)).inDiff;
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
    // Saved once the review is out: a retry after a failure before this posts the same findings.
    await remembered?.save(onLines);
    const rest = bodies(onLines).slice(1);
    for (const body of rest) await api.postIssueComment(repo, number, body);
    outcome = {
      onLines: onLines.length,
      moved: comments.length - onLines.length,
      extraComments: rest.length,
      ...(remembered ? { findings: remembered.counts } : {}),
    };
    return onLines;
  });
  request.log.info(
    { target, repo, pr_number: number, ...outcome },
    'posted the answer as a pull request review',
  );
  return outcome;
}
