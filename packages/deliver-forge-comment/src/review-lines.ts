/**
 * Which line comments a forge can place: a review comment must sit on a line of the new file that
 * the diff shows (added or context), or the forge refuses the whole review.
 */
import {
  findingMarker,
  gatewayMarker,
  withoutFindingMarkers,
  type LineComment,
} from '@webhook-gateway/core';
import parseDiff from 'parse-diff';

/**
 * The new-file lines a unified diff of one file shows (added and context lines).
 *
 * @example commentableLines('@@ -1,2 +1,3 @@\n a\n+b\n c') // Set { 1, 2, 3 }
 */
export function commentableLines(patch: string): Set<number> {
  return new Set(lineTexts(patch).keys());
}

/**
 * The text of each new-file line a unified diff of one file shows (added and context lines),
 * without the diff's leading `+` or space: what a finding's fingerprint is made of.
 *
 * @example lineTexts('@@ -1,2 +1,3 @@\n a\n+b\n c') // Map { 1 => 'a', 2 => 'b', 3 => 'c' }
 */
export function lineTexts(patch: string): Map<number, string> {
  const lines = new Map<number, string>();
  for (const file of parseDiff(patch)) {
    for (const chunk of file.chunks) {
      for (const change of chunk.changes) {
        if (change.type === 'add') lines.set(change.ln, change.content.slice(1));
        else if (change.type === 'normal') lines.set(change.ln2, change.content.slice(1));
      }
    }
  }
  return lines;
}

/** Line comments split by whether the diff shows their line, each in its order. */
export function splitByDiff(
  comments: readonly LineComment[],
  diff: ReadonlyMap<string, ReadonlySet<number>>,
): { inDiff: LineComment[]; outside: LineComment[] } {
  const inDiff: LineComment[] = [];
  const outside: LineComment[] = [];
  for (const comment of comments) {
    (diff.get(comment.path)?.has(comment.line) ? inDiff : outside).push(comment);
  }
  return { inDiff, outside };
}

/**
 * A review's body with the comments that could not go on their lines, as text under the summary:
 * never dropped.
 */
export function bodyWithMovedComments(summary: string, moved: readonly LineComment[]): string {
  if (moved.length === 0) return summary;
  const lines = moved.map((comment) => `- \`${comment.path}:${comment.line}\` — ${comment.body}`);
  const heading = '**Comments on lines this diff does not show**';
  return [summary.trimEnd(), `${heading}\n\n${lines.join('\n')}`]
    .filter((part) => part !== '')
    .join('\n\n');
}

/**
 * A line comment's body as posted: the agent's words, then the gateway's hidden markers: the
 * finding's fingerprint (when findings are remembered), and the delivery's, so the loop guard
 * ignores it when the forge sends it back as a comment event.
 */
export function markedLineCommentBody(
  comment: LineComment,
  deliveryId: string,
  fingerprint?: string,
): string {
  // A marker the agent copied into its text is taken out: only the gateway's own one counts.
  const remembered = fingerprint === undefined ? '' : findingMarker(fingerprint);
  return `${withoutFindingMarkers(comment.body)}\n\n${remembered}${gatewayMarker(deliveryId)}`;
}

/**
 * Each changed file's added and context lines of the new file, by its path after the change, from
 * a whole unified diff (a pull request's `.diff`): where a line comment can sit.
 *
 * @example diffLinesByPath(diff).get('src/a.ts') // Set { 10, 11, 12 }
 */
export function diffLinesByPath(diff: string): Map<string, Set<number>> {
  const lines = new Map<string, Set<number>>();
  for (const file of parseDiff(diff)) {
    if (file.deleted || file.to === undefined || file.to === '/dev/null') continue;
    const shown = new Set<number>();
    for (const chunk of file.chunks) {
      for (const change of chunk.changes) {
        if (change.type === 'add') shown.add(change.ln);
        else if (change.type === 'normal') shown.add(change.ln2);
      }
    }
    lines.set(file.to, shown);
  }
  return lines;
}
