/**
 * The `bitbucket_review` target: each line comment as an inline pull request comment
 * (`inline: { path, to }`, `to` the line of the new file), then the summary as a comment.
 * Bitbucket Cloud has no review object. A comment whose line the diff does not show, or that
 * Bitbucket refuses (`400`), goes into the summary as text: never dropped. With the journal's
 * findings, a finding already posted on the pull request is not posted again, and a fixed one's
 * thread is resolved.
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
import { BitbucketApiError } from './bitbucket-api.js';
import { withBuildStatus } from './commit-status.js';
import { connectBitbucket } from './connect.js';
import { BITBUCKET_COMMENT_LIMIT } from './deliver-bitbucket-comment.js';
import { bitbucketFindingThreads } from './finding-threads.js';
import type { BitbucketSettings } from './settings.js';
import { BITBUCKET_REVIEW_TARGET } from './target-names.js';

/** How a review went out, for the log and tests. */
export interface BitbucketReviewOutcome {
  onLines: number;
  /** Comments moved into the summary (their line is not in the diff, or was refused). */
  moved: number;
  /** Comments the summary took (more than one when it is over the limit). */
  summaryComments: number;
  /** What the review did with the findings, when the journal remembers them. */
  findings?: FindingCounts;
}

function isRefused(error: unknown): boolean {
  return error instanceof BitbucketApiError && (error.status === 400 || error.status === 422);
}

/** Posts the inline comments and the summary; throws so the worker retries (all posted again). */
export async function deliverBitbucketReview(
  request: DeliverRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
): Promise<BitbucketReviewOutcome> {
  const target = BITBUCKET_REVIEW_TARGET;
  const { api, pullRequest } = connectBitbucket(request, settings, options, target);
  const { repo, id } = pullRequest;
  const deliveryId = request.delivery.deliveryId;
  // With the journal's findings: only new findings are posted, fixed ones' threads resolved.
  const journal = findingsJournalOf(request);
  let outcome: BitbucketReviewOutcome = { onLines: 0, moved: 0, summaryComments: 0 };
  await withBuildStatus(request, api, pullRequest, target, async () => {
    const diff =
      request.lineComments.length === 0 && !journal ? '' : await api.pullRequestDiff(repo, id);
    const remembered = journal
      ? await rememberFindings(
          request,
          journal,
          bitbucketFindingThreads(api, pullRequest, settings.bot),
          diffLineTextsByPath(diff),
        )
      : undefined;
    const comments = remembered ? remembered.comments : request.lineComments;
    // Remembered comments outside the diff are known already: only new findings go on lines.
    const { inDiff, outside } = remembered
      ? {
          inDiff: comments.filter((comment) => remembered.fingerprints.has(comment)),
          outside: comments.filter((comment) => !remembered.fingerprints.has(comment)),
        }
      : splitByDiff(comments, diffLinesByPath(diff));
    const moved: LineComment[] = [...outside];
    const placed: LineComment[] = [];
    for (const comment of inDiff) {
      const fingerprint = remembered?.fingerprints.get(comment);
      try {
        await api.postComment(repo, id, markedLineCommentBody(comment, deliveryId, fingerprint), {
          path: comment.path,
          to: comment.line,
        });
        placed.push(comment);
      } catch (error) {
        if (!isRefused(error)) throw error;
        moved.push(comment);
      }
    }
    // Saved once the findings are on their lines: a retry after a failed summary does not post
    // them again; a retry after a failure before this posts the same new findings again.
    await remembered?.save(placed);
    // In the agent's order, whatever made each one move.
    const movedInOrder = comments.filter((comment) => moved.includes(comment));
    const bodies = commentBodies(
      bodyWithMovedComments(remembered ? remembered.summary : request.summary, movedInOrder),
      BITBUCKET_COMMENT_LIMIT,
      deliveryId,
    );
    for (const body of bodies) await api.postComment(repo, id, body);
    outcome = {
      onLines: placed.length,
      moved: moved.length,
      summaryComments: bodies.length,
      ...(remembered ? { findings: remembered.counts } : {}),
    };
    return placed;
  });
  request.log.info(
    { target, repo, pr_number: id, ...outcome },
    'posted the answer as inline pull request comments and a summary',
  );
  return outcome;
}
