/**
 * The `bitbucket_review` target: each line comment on its line of the new file (Cloud: an inline
 * comment, `inline: { path, to }`; Data Center: a comment with an `anchor`), then the summary as
 * a comment. Neither Bitbucket has a review object to post at once. A comment whose line the diff
 * does not show, or that Bitbucket refuses (`400`, `409`, `422`), goes into the summary as text:
 * never dropped. With the journal's findings, a finding already posted on the pull request is not
 * posted again, and a fixed one's thread is resolved.
 */
import type { DeliverRequest, FindingCounts, LineComment } from '@webhook-gateway/core';
import {
  addedLinesByPath,
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
import { withBuildStatus } from './commit-status.js';
import { connectBitbucket } from './connect.js';
import { BitbucketApiError } from './rest-client.js';
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

/** Bitbucket refusing a line comment's place: Cloud says 400 or 422, Data Center 400 or 409. */
function isRefused(error: unknown): boolean {
  return error instanceof BitbucketApiError && [400, 409, 422].includes(error.status);
}

/** Posts the line comments and the summary; throws so the worker retries (all posted again). */
export async function deliverBitbucketReview(
  request: DeliverRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
): Promise<BitbucketReviewOutcome> {
  const target = BITBUCKET_REVIEW_TARGET;
  const delivery = connectBitbucket(request, settings, options, target);
  const { calls, pullRequest } = delivery;
  const deliveryId = request.delivery.deliveryId;
  // With the journal's findings: only new findings are posted, fixed ones' threads resolved.
  const threads = calls.findingThreads(delivery.bot);
  const journal = findingsJournalOf(request);
  let outcome: BitbucketReviewOutcome = { onLines: 0, moved: 0, summaryComments: 0 };
  await withBuildStatus(request, delivery, target, async () => {
    const diff = request.lineComments.length === 0 && !journal ? '' : await calls.diff();
    const remembered = journal
      ? await rememberFindings(request, journal, threads, diffLineTextsByPath(diff))
      : undefined;
    const comments = remembered ? remembered.comments : request.lineComments;
    // Remembered comments outside the diff are known already: only new findings go on lines.
    const { inDiff, outside } = remembered
      ? {
          inDiff: comments.filter((comment) => remembered.fingerprints.has(comment)),
          outside: comments.filter((comment) => !remembered.fingerprints.has(comment)),
        }
      : splitByDiff(comments, diffLinesByPath(diff));
    const added = addedLinesByPath(diff);
    const moved: LineComment[] = [...outside];
    const placed: LineComment[] = [];
    for (const comment of inDiff) {
      const fingerprint = remembered?.fingerprints.get(comment);
      try {
        await calls.postLineComment(markedLineCommentBody(comment, deliveryId, fingerprint), {
          path: comment.path,
          line: comment.line,
          added: added.get(comment.path)?.has(comment.line) === true,
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
      calls.commentLimit,
      deliveryId,
    );
    for (const body of bodies) await calls.postComment(body);
    outcome = {
      onLines: placed.length,
      moved: moved.length,
      summaryComments: bodies.length,
      ...(remembered ? { findings: remembered.counts } : {}),
    };
    return placed;
  });
  request.log.info(
    { target, repo: pullRequest.repo, pr_number: pullRequest.id, ...outcome },
    'posted the answer as line comments and a summary',
  );
  return outcome;
}
