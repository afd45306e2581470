/**
 * The `altforge_review` target: each line comment as a merge request discussion on its line (a
 * text position on the new file, through `glab api`), then the summary as a note. A position the
 * altforge refuses (a line its diff does not show) goes into the summary note as `path:line`
 * text: a comment is never dropped.
 */
import type { DeliverRequest, FindingCounts, LineComment } from '@webhook-gateway/core';
import { z } from 'zod';
import {
  ALTFORGE_NOTE_LIMIT,
  ALTFORGE_PROFILE,
  altforgeEnv,
  altforgeSecrets,
  altforgeNoteArgv,
} from './altforge-cli.js';
import { resolveAltforgeMergeRequest, type AltforgeMergeRequest } from './altforge-target.js';
import {
  headLineTexts,
  readAltforgeThreads,
  resolveAltforgeThread,
} from './altforge-review-threads.js';
import { cliApiError, runCliApi, type CliApiContext } from './cli-api.js';
import { commentBodies } from './comment-bodies.js';
import { CommentDeliveryError } from './errors.js';
import { payloadValue } from './extra-value.js';
import { postComments } from './post-comments.js';
import { findingsJournalOf, rememberFindings, type RememberedReview } from './remember-findings.js';
import { bodyWithMovedComments, markedLineCommentBody } from './review-lines.js';
import type { CliOutcome } from './run-cli.js';
import type { AltforgeSettings } from './settings.js';
import { ALTFORGE_REVIEW_TARGET } from './target-names.js';

/** `glab api` calls and the summary note (`glab mr note`), named as this target in errors. */
const API_PROFILE = { ...ALTFORGE_PROFILE, target: ALTFORGE_REVIEW_TARGET, action: 'api' };
const NOTE_PROFILE = { ...ALTFORGE_PROFILE, target: ALTFORGE_REVIEW_TARGET };

/** The three commits a text position names (`diff_refs` of a merge request). */
const diffRefsSchema = z.object({
  base_sha: z.string().min(1),
  start_sha: z.string().min(1),
  head_sha: z.string().min(1),
});
type DiffRefs = z.infer<typeof diffRefsSchema>;

const mergeRequestSchema = z.object({ diff_refs: diffRefsSchema });

/** True when the altforge refused the discussion's position (400: the line is not in the diff). */
function isRefusedPosition(outcome: CliOutcome): boolean {
  return outcome.kind === 'exit' && /\b(?:400|422)\b/.test(outcome.stderr);
}

/** `projects/<url-encoded path>/merge_requests/<iid>`: the API path of the merge request. */
function mergeRequestPath({ path, iid }: AltforgeMergeRequest): string {
  return `projects/${encodeURIComponent(path)}/merge_requests/${iid}`;
}

/** The payload's `object_attributes.diff_refs`, else the merge request's, asked of the altforge. */
async function diffRefs(
  request: DeliverRequest,
  glab: CliApiContext,
  mergeRequest: AltforgeMergeRequest,
): Promise<DiffRefs> {
  const fromPayload = diffRefsSchema.safeParse(
    payloadValue(request.delivery.payload, 'object_attributes.diff_refs'),
  );
  if (fromPayload.success) return fromPayload.data;
  const outcome = await runCliApi(glab, [mergeRequestPath(mergeRequest)]);
  if (outcome.kind !== 'ok') throw cliApiError(glab, outcome);
  let json: unknown;
  try {
    json = JSON.parse(outcome.stdout);
  } catch {
    json = undefined;
  }
  const parsed = mergeRequestSchema.safeParse(json);
  if (!parsed.success) {
    throw new CommentDeliveryError(
      ALTFORGE_REVIEW_TARGET,
      'cli-failed',
      `glab api ${mergeRequestPath(mergeRequest)} answered no diff_refs (base_sha, start_sha, head_sha) to place line comments with`,
    );
  }
  return parsed.data.diff_refs;
}

/** How a review went out, for the log. */
export interface AltforgeReviewOutcome {
  onLines: number;
  /** Comments whose position was refused, put into the summary note instead. */
  moved: number;
  notes: number;
  /** What the review did with the findings, when the journal remembers them. */
  findings?: FindingCounts;
}

/**
 * Posts a discussion per line comment, then the summary note (`platforms.altforge` settings).
 * Throws a `CommentDeliveryError` (the worker retries) when glab fails for another reason than a
 * refused position.
 */
export async function deliverAltforgeReview(
  request: DeliverRequest,
  settings: AltforgeSettings,
): Promise<AltforgeReviewOutcome> {
  const mergeRequest = resolveAltforgeMergeRequest(
    request.extra,
    request.delivery.payload,
    ALTFORGE_REVIEW_TARGET,
  );
  const env = altforgeEnv(settings, request.credentials);
  const glab: CliApiContext = {
    profile: API_PROFILE,
    cli: settings.cli,
    env,
    host: settings.host ?? ALTFORGE_PROFILE.defaultHost,
    timeoutS: settings.timeout_s,
    subject: `a review of merge request !${mergeRequest.iid} of ${mergeRequest.path}`,
    secrets: altforgeSecrets(env),
    signal: request.signal,
  };
  const moved: LineComment[] = [];
  const journal = findingsJournalOf(request);
  const refs =
    request.lineComments.length > 0 || journal
      ? await diffRefs(request, glab, mergeRequest)
      : undefined;
  // With the journal's findings: only new findings are posted, fixed ones' discussions resolved.
  const remembered: RememberedReview | undefined =
    journal && refs
      ? await rememberFindings(
          request,
          journal,
          {
            read: (trusted) => readAltforgeThreads(glab, mergeRequestPath(mergeRequest), trusted),
            resolve: (id) => resolveAltforgeThread(glab, mergeRequestPath(mergeRequest), id),
          },
          await headLineTexts(glab, mergeRequest.path, refs.head_sha, [
            ...request.lineComments.map((comment) => comment.path),
            ...(await journal.read()).map((finding) => finding.path),
          ]),
        )
      : undefined;
  const comments = remembered ? remembered.comments : request.lineComments;
  const summary = remembered ? remembered.summary : request.summary;
  if (comments.length > 0 && refs) {
    for (const comment of comments) {
      const discussion = {
        body: markedLineCommentBody(
          comment,
          request.delivery.deliveryId,
          remembered?.fingerprints.get(comment),
        ),
        position: {
          position_type: 'text',
          ...refs,
          new_path: comment.path,
          new_line: comment.line,
        },
      };
      const outcome = await runCliApi(
        glab,
        [
          '--method',
          'POST',
          `${mergeRequestPath(mergeRequest)}/discussions`,
          '--header',
          'Content-Type: application/json',
          '--input',
          '-',
        ],
        JSON.stringify(discussion),
      );
      if (isRefusedPosition(outcome)) moved.push(comment);
      else if (outcome.kind !== 'ok') throw cliApiError(glab, outcome);
    }
  }
  // Saved once the discussions are out, before the note: a refused position has no thread.
  await remembered?.save(comments.filter((comment) => !moved.includes(comment)));
  const bodies = commentBodies(
    bodyWithMovedComments(summary, moved),
    ALTFORGE_NOTE_LIMIT,
    request.delivery.deliveryId,
  );
  await postComments({
    profile: NOTE_PROFILE,
    cli: settings.cli,
    args: altforgeNoteArgv(mergeRequest),
    env,
    host: settings.host ?? ALTFORGE_PROFILE.defaultHost,
    timeoutS: settings.timeout_s,
    subject: `merge request !${mergeRequest.iid} of ${mergeRequest.path}`,
    bodies,
    secrets: altforgeSecrets(env),
    signal: request.signal,
  });
  const result = {
    onLines: comments.length - moved.length,
    moved: moved.length,
    notes: bodies.length,
    ...(remembered ? { findings: remembered.counts } : {}),
  };
  request.log.info(
    {
      target: ALTFORGE_REVIEW_TARGET,
      repo: mergeRequest.path,
      mr_iid: mergeRequest.iid,
      ...result,
    },
    'posted the answer as merge request discussions and a note',
  );
  return result;
}
