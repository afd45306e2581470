/**
 * The `forge_review` target: the answer as one pull request review (`event: COMMENT`) whose
 * comments sit on the lines the agent named, through `gh api`. When the forge refuses the review
 * (422: a line the diff does not show), the review is posted again with those comments moved into
 * its body as text: a comment is never dropped, and one bad line never loses the review.
 */
import type { DeliverRequest, FindingCounts, LineComment } from '@webhook-gateway/core';
import { z } from 'zod';
import { commentBodies } from './comment-bodies.js';
import { payloadValue } from './extra-value.js';
import { cliApiError, runCliApi, type CliApiContext } from './cli-api.js';
import {
  FORGE_COMMENT_LIMIT,
  FORGE_PROFILE,
  forgeEnv,
  forgeHostOf,
  forgeSecrets,
} from './forge-cli.js';
import { resolveForgePullRequest, type ForgePullRequest } from './forge-target.js';
import { readFindingThreads, resolveFindingThread } from './forge-review-threads.js';
import { findingsJournalOf, rememberFindings, type RememberedReview } from './remember-findings.js';
import {
  bodyWithMovedComments,
  lineTexts,
  markedLineCommentBody,
  splitByDiff,
} from './review-lines.js';
import type { CliOutcome } from './run-cli.js';
import type { ForgeSettings } from './settings.js';
import { FORGE_REVIEW_TARGET } from './target-names.js';

/** `gh api` calls, named as this target in errors. */
const API_PROFILE = { ...FORGE_PROFILE, target: FORGE_REVIEW_TARGET, action: 'api' };

/** `gh api … --jq '.[] | {filename, patch}'`: one JSON object per line (patch absent for binaries). */
const changedFileSchema = z.object({ filename: z.string(), patch: z.string().nullish() });

/** True when the forge refused the request as unprocessable (a review line outside the diff). */
function isUnprocessable(outcome: CliOutcome): boolean {
  return outcome.kind === 'exit' && /\(HTTP 422\)/.test(outcome.stderr);
}

/** The text of each new-file line the pull request's diff shows, per path (`GET …/pulls/{n}/files`). */
async function diffLineTexts(
  gh: CliApiContext,
  { repo, prNumber }: ForgePullRequest,
): Promise<Map<string, Map<number, string>>> {
  const outcome = await runCliApi(gh, [
    '--paginate',
    `repos/${repo}/pulls/${prNumber}/files`,
    '--jq',
    '.[] | {filename, patch}',
  ]);
  if (outcome.kind !== 'ok') throw cliApiError(gh, outcome);
  const files = new Map<string, Map<number, string>>();
  for (const line of outcome.stdout.split('\n')) {
    if (line.trim() === '') continue;
    const file = changedFileSchema.parse(JSON.parse(line));
    files.set(file.filename, lineTexts(file.patch ?? ''));
  }
  return files;
}

/** The new-file lines the pull request's diff shows, per path. */
export async function diffLines(
  gh: CliApiContext,
  pullRequest: ForgePullRequest,
): Promise<Map<string, Set<number>>> {
  const files = await diffLineTexts(gh, pullRequest);
  return new Map([...files].map(([path, lines]) => [path, new Set(lines.keys())]));
}

/** How a review went out, for the log. */
export interface ReviewOutcome {
  onLines: number;
  /** Comments moved into the review's body because the forge refused their lines. */
  moved: number;
  /** Extra pull request comments holding the rest of a summary too long for one review body. */
  extraComments: number;
  /** What the review did with the findings, when the journal remembers them. */
  findings?: FindingCounts;
}

/**
 * Posts the review with `request.lineComments` on their lines and `request.summary` as its body
 * (`platforms.forge` settings). Throws a `CommentDeliveryError` (the worker retries) when gh fails
 * for another reason than a refused line.
 */
export async function deliverForgeReview(
  request: DeliverRequest,
  settings: ForgeSettings,
): Promise<ReviewOutcome> {
  const payload = request.delivery.payload;
  const pullRequest = resolveForgePullRequest(request.extra, payload, FORGE_REVIEW_TARGET);
  const env = forgeEnv(settings, request.credentials);
  const gh: CliApiContext = {
    profile: API_PROFILE,
    cli: settings.cli,
    env,
    host: forgeHostOf(settings) ?? FORGE_PROFILE.defaultHost,
    timeoutS: settings.timeout_s,
    subject: `a review of pull request #${pullRequest.prNumber} of ${pullRequest.repo}`,
    secrets: forgeSecrets(env),
    signal: request.signal,
  };
  // Without a head SHA (a comment event), the forge reviews the pull request's newest commit.
  const headSha = payloadValue(payload, 'pull_request.head.sha');
  // With the journal's findings: only new findings are posted, fixed ones' threads resolved.
  const journal = findingsJournalOf(request);
  const remembered: RememberedReview | undefined = journal
    ? await rememberFindings(
        request,
        journal,
        {
          read: (trusted) => readFindingThreads(gh, pullRequest, trusted),
          resolve: (threadId) => resolveFindingThread(gh, threadId),
        },
        await diffLineTexts(gh, pullRequest),
      )
    : undefined;
  const comments = remembered ? remembered.comments : request.lineComments;
  const summary = remembered ? remembered.summary : request.summary;
  /** The summary with the comments not on their lines, in parts that fit one body each. */
  const bodies = (onLines: readonly LineComment[]): string[] =>
    commentBodies(
      bodyWithMovedComments(
        summary,
        comments.filter((comment) => !onLines.includes(comment)),
      ),
      FORGE_COMMENT_LIMIT,
      request.delivery.deliveryId,
    );

  const postReview = async (onLines: readonly LineComment[]): Promise<CliOutcome> => {
    const [body = ''] = bodies(onLines);
    const review = {
      event: 'COMMENT',
      ...(typeof headSha === 'string' ? { commit_id: headSha } : {}),
      body,
      comments: onLines.map((comment) => ({
        path: comment.path,
        line: comment.line,
        side: 'RIGHT',
        body: markedLineCommentBody(
          comment,
          request.delivery.deliveryId,
          remembered?.fingerprints.get(comment),
        ),
      })),
    };
    const { repo, prNumber } = pullRequest;
    return runCliApi(
      gh,
      ['--method', 'POST', `repos/${repo}/pulls/${prNumber}/reviews`, '--input', '-'],
      JSON.stringify(review),
    );
  };

  // Remembered comments outside the diff are known already: they go into the body at once.
  let onLines: readonly LineComment[] = remembered
    ? comments.filter((comment) => remembered.fingerprints.has(comment))
    : comments;
  let outcome = await postReview(onLines);
  if (isUnprocessable(outcome) && onLines.length > 0) {
    // The forge does not say which line it refused: the diff does.
    const { inDiff } = splitByDiff(comments, await diffLines(gh, pullRequest));
    if (inDiff.length > 0 && inDiff.length < comments.length) {
      onLines = inDiff;
      outcome = await postReview(onLines);
    }
    if (isUnprocessable(outcome)) {
      onLines = [];
      outcome = await postReview(onLines);
    }
  }
  if (outcome.kind !== 'ok') throw cliApiError(gh, outcome);
  // Saved once the review is out: a retry after a failure before this posts the same findings.
  await remembered?.save(onLines);
  const rest = bodies(onLines).slice(1);
  // The rest of a summary too long for one review body, as pull request comments after it.
  for (const [index, body] of rest.entries()) {
    const { repo, prNumber } = pullRequest;
    const posted = await runCliApi(
      gh,
      ['--method', 'POST', `repos/${repo}/issues/${prNumber}/comments`, '--input', '-'],
      JSON.stringify({ body }),
    );
    if (posted.kind !== 'ok') {
      const progress = ` (the review was posted; comment ${index + 1} of ${rest.length} with the rest of its summary was not)`;
      throw cliApiError(gh, posted, progress);
    }
  }
  const result = {
    onLines: onLines.length,
    moved: comments.length - onLines.length,
    extraComments: rest.length,
    ...(remembered ? { findings: remembered.counts } : {}),
  };
  request.log.info(
    {
      target: FORGE_REVIEW_TARGET,
      repo: pullRequest.repo,
      pr_number: pullRequest.prNumber,
      ...result,
    },
    'posted the answer as a pull request review',
  );
  return result;
}
