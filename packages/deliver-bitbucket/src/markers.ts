/**
 * Bitbucket escapes HTML in comments, so the gateway's hidden `<!-- webhook-gateway:… -->` lines
 * would show. Each such line is written as a Markdown link reference definition instead,
 * `[//]: # (<!-- webhook-gateway:… -->)`, which renders as nothing and still holds the marker
 * text the living comment and the loop guard look for. The one marker the gateway puts at the end
 * of a line of text, a queued review's status line's, goes on its own line below it, after a
 * blank line (a link definition cannot interrupt a paragraph). `showMarkers` reads them back.
 */
import { WAITING_MARKER } from '@webhook-gateway/deliver-forge-comment/comments';

const MARKER_LINE = /^<!-- (webhook-gateway:[^\n]*?) -->$/gm;
const HIDDEN_MARKER_LINE = /^\[\/\/\]: # \((<!-- webhook-gateway:[^\n]*? -->)\)$/gm;

// The waiting marker holds no character a pattern reads as more than itself.
const HIDDEN_WAITING = `[//]: # (${WAITING_MARKER})`;
/** A line of text ending with the waiting marker; the text is `$1`. */
const WAITING_AFTER_TEXT = new RegExp(`^([^\\n]*\\S) ${WAITING_MARKER}$`, 'gm');
/** That line as `hideMarkers` wrote it: the text's last character is `$1`. */
const HIDDEN_WAITING_AFTER_TEXT = new RegExp(
  `(\\S)\\n\\n\\[//\\]: # \\(${WAITING_MARKER}\\)$`,
  'gm',
);

/**
 * `body` with each marker line hidden the Bitbucket way.
 *
 * @example hideMarkers('Hi\n\n<!-- webhook-gateway:delivery d1 -->')
 * // 'Hi\n\n[//]: # (<!-- webhook-gateway:delivery d1 -->)'
 */
export function hideMarkers(body: string): string {
  return body
    .replace(WAITING_AFTER_TEXT, `$1\n\n${HIDDEN_WAITING}`)
    .replace(MARKER_LINE, '[//]: # (<!-- $1 -->)');
}

/**
 * A comment as the gateway wrote it before `hideMarkers`, so the living comment compares and
 * edits it as every forge has it: `hideMarkers(showMarkers(text))` gives back any `text` that
 * `hideMarkers` wrote.
 *
 * @example showMarkers('[//]: # (<!-- webhook-gateway:reviews -->)\nHi')
 * // '<!-- webhook-gateway:reviews -->\nHi'
 */
export function showMarkers(text: string): string {
  return text
    .replace(HIDDEN_WAITING_AFTER_TEXT, `$1 ${WAITING_MARKER}`)
    .replace(HIDDEN_MARKER_LINE, '$1');
}
