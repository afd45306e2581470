/**
 * What a review's check shows, whatever carries it (a check run, a commit status): its name, a
 * title, a summary within the forge's limit, the line comments as annotations in batches the
 * forge accepts, and a status description within 140 characters.
 */
import {
  ordinal,
  type LineComment,
  type ReviewConclusion,
  type QueueStanding,
  type ReviewConclusionValue,
} from '@webhook-gateway/core';
import { bodyWithMovedComments } from './review-lines.js';

/** The forge's limit on a check run's `output.summary` (and `text`), in characters. */
export const CHECK_SUMMARY_LIMIT = 65_535;
/** The forge takes at most this many annotations per create or update of a check run. */
const ANNOTATIONS_PER_REQUEST = 50;
/** The forge's limit on a commit status's `description`. */
const STATUS_DESCRIPTION_LIMIT = 140;
/** The forge's limit on an annotation's `message`. */
const ANNOTATION_MESSAGE_LIMIT = 64 * 1024;

/** Whether a route shows its review as a check (`deliver_extra.check: true`). */
export function checkIsOn(deliverExtra: Record<string, unknown>): boolean {
  return deliverExtra.check === true;
}

/** The check's name (the status's `context`): one per route, so each route gates on its own. */
export function checkName(route: string): string {
  return `webhook-gateway/${route}`;
}

/** How a check ends: the verdict, or `failure` for a delivery that failed. */
export interface CheckEnd {
  conclusion: ReviewConclusionValue;
  title: string;
  /** Markdown; cut to the forge's limit with a notice when longer. */
  summary: string;
  annotations: CheckAnnotation[];
}

/** A line comment as a check run's annotation (`POST …/check-runs`). */
interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  message: string;
}

export const IN_PROGRESS_TITLE = 'Review in progress';

/**
 * The title of a review still queued: its place in its route's queue.
 *
 * @example queuedTitle({ position: 3, reasons: [] }) // 'Queued, 3rd'
 */
export function queuedTitle(standing: Pick<QueueStanding, 'position' | 'reasons'>): string {
  const place = ordinal(standing.position);
  // An operator's pause holds the route: say so, not only the place.
  return isPaused(standing) ? `Paused by operator, queued ${place}` : `Queued, ${place}`;
}

/** Whether an operator's pause holds the delivery. */
export function isPaused(standing: Pick<QueueStanding, 'reasons'>): boolean {
  return standing.reasons.some((reason) => reason.kind === 'paused');
}

const NO_SUMMARY = '(the agent wrote no summary; see the annotations)';

const DEFAULT_TITLES: Record<ReviewConclusionValue, string> = {
  success: 'No problems found',
  neutral: 'Reviewed',
  failure: 'Problems found',
};

/** `text` cut to `limit` characters, ending with `…` when it was longer. */
function cutText(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/**
 * `summary` within `limit` characters: when longer, cut at a line end where it can be, with a
 * notice saying the rest is in the review itself.
 */
export function cutSummary(summary: string, limit = CHECK_SUMMARY_LIMIT): string {
  if (summary.length <= limit) return summary;
  const notice = `\n\n_(Cut at ${limit.toLocaleString('en-US')} characters, the forge's limit for a check; the review on the pull request has all of it.)_`;
  const room = limit - notice.length;
  const lineEnd = summary.lastIndexOf('\n', room);
  const cut = lineEnd > room / 2 ? lineEnd : room;
  return summary.slice(0, cut) + notice;
}

/** The check's title: the agent's reason, else the conclusion's words, with the comment count. */
export function checkTitle(conclusion: ReviewConclusion, comments: number): string {
  const words = conclusion.reason?.trim() || DEFAULT_TITLES[conclusion.value];
  const counted = comments === 0 ? '' : ` (${comments} ${comments === 1 ? 'comment' : 'comments'})`;
  return cutText(words.replace(/\s+/g, ' '), 1000 - counted.length) + counted;
}

/**
 * How a delivered review ends its check: the comments the diff shows become annotations, the
 * others go into the summary as text (never dropped).
 */
export function deliveredCheck(
  summary: string,
  conclusion: ReviewConclusion,
  onLines: readonly LineComment[],
  moved: readonly LineComment[],
): CheckEnd {
  return {
    conclusion: conclusion.value,
    title: checkTitle(conclusion, onLines.length + moved.length),
    // The forge refuses an empty summary; an answer of line comments alone has none.
    summary: cutSummary(bodyWithMovedComments(summary, moved).trim() || NO_SUMMARY),
    annotations: onLines.map((comment) => ({
      path: comment.path,
      start_line: comment.line,
      end_line: comment.line,
      annotation_level: 'warning',
      message: cutText(comment.body, ANNOTATION_MESSAGE_LIMIT),
    })),
  };
}

/** How a failed delivery ends its check: `failure`, with the error. */
export function failedCheck(error: string): CheckEnd {
  return {
    conclusion: 'failure',
    title: 'The review failed',
    summary: cutSummary(`The review could not be delivered:\n\n\`\`\`\n${error}\n\`\`\``),
    annotations: [],
  };
}

/** How a silent review (`[SILENT]`: nothing to say) ends its check. */
export function silentCheck(conclusion: ReviewConclusion): CheckEnd {
  return {
    conclusion: conclusion.value,
    title: checkTitle(conclusion, 0),
    summary: 'The agent had nothing to say about this change.',
    annotations: [],
  };
}

/** `items` in batches of at most `size` (none for no items). */
export function batches<T>(items: readonly T[], size = ANNOTATIONS_PER_REQUEST): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) {
    out.push(items.slice(index, index + size));
  }
  return out;
}

/**
 * A commit status's state: the forge's statuses have no neutral, so it is `success` (nothing
 * blocks the merge); the altforge says `failed` where the forge says `failure`.
 */
export function statusState(
  conclusion: ReviewConclusionValue,
  platform: 'forge' | 'altforge',
): string {
  if (conclusion === 'failure') return platform === 'forge' ? 'failure' : 'failed';
  return 'success';
}

/** A status's description: the title, cut to the forge's 140 characters. */
export function statusDescription(title: string): string {
  return cutText(title, STATUS_DESCRIPTION_LIMIT);
}

/**
 * The delivery's dashboard page, when `platforms.webhook.extra.admin.public_url` says where the
 * dashboard is reached from outside: the status links there.
 */
export function dashboardPage(
  publicUrl: string | undefined,
  journalId: string,
): string | undefined {
  if (publicUrl === undefined) return undefined;
  return `${publicUrl.replace(/\/+$/, '')}/dashboard/deliveries/${encodeURIComponent(journalId)}`;
}
