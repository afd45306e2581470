/**
 * A queued review of a `mode: update` route on its living comment: while the next review waits,
 * the comment's first part starts with one status line ("> ⏳ Queued, 2nd: …", "> ⏸ Paused by
 * operator, queued 2nd: …") above the previous review, which stays as it was. The next review's
 * answer replaces the whole body, the line with it. Nothing is posted when no comment exists.
 */
import { gatewayMarker, type QueueStanding } from '@webhook-gateway/core';
import { isPaused, queuedTitle } from './check-output.js';
import { inTurn } from './in-turn.js';
import { commentMarker, WAITING_MARKER, type LivingCommentApi } from './living-comment.js';

/** A status line the gateway put in, with the blank line after it. */
const WAITING_LINE = new RegExp(`^> [^\\n]*${WAITING_MARKER}\\n\\n`);

/**
 * The status line for `standing`, in the check's words (`queuedTitle`).
 *
 * @example waitingLine({ position: 2, reasons: [] })
 * // '> ⏳ Queued, 2nd: a new review starts when the ones ahead finish. <!-- webhook-gateway:waiting -->'
 */
export function waitingLine(standing: Pick<QueueStanding, 'position' | 'reasons'>): string {
  const title = queuedTitle(standing);
  const text = isPaused(standing)
    ? `⏸ ${title}: a new review starts once the operator resumes the route.`
    : `⏳ ${title}: a new review starts when the ones ahead finish.`;
  return `> ${text} ${WAITING_MARKER}`;
}

/** What showing the status did, for the log. */
export type WaitingShown =
  | 'shown'
  /** The route has no comment on the pull request yet: none is posted to say it waits. */
  | 'no-comment'
  /** The comment already holds this delivery's answer (it started meanwhile). */
  | 'delivered'
  /** Someone changed the comment's first line: it is left alone rather than mangled. */
  | 'not-ours'
  /** With the line, the comment would pass the forge's limit. */
  | 'too-long';

/**
 * Puts `standing`'s status line at the top of the route's living comment (its first part),
 * replacing an earlier status line; `limit` is the forge's longest comment.
 */
export async function showWaitingInLivingComment(
  api: LivingCommentApi,
  route: string,
  deliveryId: string,
  standing: Pick<QueueStanding, 'position' | 'reasons'>,
  limit: number,
): Promise<WaitingShown> {
  return inTurn(`${api.place} ${route}`, async () => {
    const head = `${commentMarker(route)}\n`;
    const [first] = await api.listMarked(commentMarker(route));
    if (first === undefined) return 'no-comment';
    if (first.body.includes(gatewayMarker(deliveryId))) return 'delivered';
    if (!first.body.startsWith(head)) return 'not-ours';
    const previous = first.body.slice(head.length).replace(WAITING_LINE, '');
    const body = `${head}${waitingLine(standing)}\n\n${previous}`;
    if (body.length > limit) return 'too-long';
    if (body !== first.body) await api.edit(first.id, body);
    return 'shown';
  });
}
