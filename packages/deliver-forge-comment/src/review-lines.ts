/**
 * Which line comments a forge can place: a review comment must sit on a line of the new file that
 * the diff shows (added or context), or the forge refuses the whole review.
 */
import {
  codeFence,
  findingMarker,
  gatewayMarker,
  lineCommentPlace,
  suggestionAsText,
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

/** Line comments split by whether the diff shows their line (and a range's first), each in its order. */
export function splitByDiff(
  comments: readonly LineComment[],
  diff: ReadonlyMap<string, ReadonlySet<number>>,
): { inDiff: LineComment[]; outside: LineComment[] } {
  const inDiff: LineComment[] = [];
  const outside: LineComment[] = [];
  for (const comment of comments) {
    const shown = diff.get(comment.path);
    const placed =
      shown?.has(comment.line) &&
      (comment.start_line === undefined || shown.has(comment.start_line));
    (placed ? inDiff : outside).push(comment);
  }
  return { inDiff, outside };
}

/**
 * A review's body with the comments that could not go on their lines, as text under the summary:
 * never dropped.
 */
export function bodyWithMovedComments(summary: string, moved: readonly LineComment[]): string {
  if (moved.length === 0) return summary;
  const lines = moved.map(
    (comment) =>
      `- \`${lineCommentPlace(comment)}\` — ${comment.body}` +
      (comment.suggestion !== undefined
        ? `\n\n${indent(suggestionAsText(comment.suggestion))}\n`
        : ''),
  );
  const heading = '**Comments on lines this diff does not show**';
  return [summary.trimEnd(), `${heading}\n\n${lines.join('\n')}`]
    .filter((part) => part !== '')
    .join('\n\n');
}

/** Text indented to sit inside a Markdown list item. */
function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
}

/** The first line of a comment's range (`line` itself without one). */
function firstLine(comment: LineComment): number {
  return comment.start_line ?? comment.line;
}

/**
 * The comments whose suggestion overlaps another comment's lines on the same file: committing one
 * would change lines another remark is about (or another suggestion replaces), so they are posted
 * as text, not as a committable suggestion.
 */
export function overlappingSuggestions(comments: readonly LineComment[]): Set<LineComment> {
  const overlapping = new Set<LineComment>();
  for (const comment of comments) {
    if (comment.suggestion === undefined) continue;
    const overlaps = comments.some(
      (other) =>
        other !== comment &&
        other.path === comment.path &&
        firstLine(other) <= comment.line &&
        firstLine(comment) <= other.line,
    );
    if (overlaps) overlapping.add(comment);
  }
  return overlapping;
}

/**
 * How a comment's suggestion is posted: as the forge's committable block (` ```suggestion `, over
 * the comment's `start_line`–`line`), as the altforge's (` ```suggestion:-N+0 `, N lines above the
 * comment's line), or as plain text.
 */
export type SuggestionStyle = 'forge' | 'altforge' | 'text';

/** The suggestion as the style wants it. */
function suggestionBlock(comment: LineComment, style: SuggestionStyle): string {
  const suggestion = comment.suggestion ?? '';
  if (style === 'text') return suggestionAsText(suggestion);
  const fence = codeFence(suggestion);
  const above = comment.line - firstLine(comment);
  const info = style === 'forge' ? 'suggestion' : `suggestion:-${above}+0`;
  const text = suggestion.replace(/\n$/, '');
  return `${fence}${info}\n${text === '' ? '' : `${text}\n`}${fence}`;
}

/**
 * A line comment's body as posted: the agent's words, its suggestion in `style`, then the
 * gateway's hidden markers: the finding's fingerprint (when findings are remembered), and the
 * delivery's, so the loop guard ignores it when the forge sends it back as a comment event.
 */
export function markedLineCommentBody(
  comment: LineComment,
  deliveryId: string,
  fingerprint?: string,
  style: SuggestionStyle = 'text',
): string {
  const suggestion =
    comment.suggestion !== undefined ? `\n\n${suggestionBlock(comment, style)}` : '';
  // A marker the agent copied into its text is taken out: only the gateway's own one counts.
  const remembered = fingerprint === undefined ? '' : findingMarker(fingerprint);
  return `${withoutFindingMarkers(comment.body)}${suggestion}\n\n${remembered}${gatewayMarker(deliveryId)}`;
}

/**
 * Each changed file's added and context lines of the new file, by its path after the change, from
 * a whole unified diff (a pull request's `.diff`): where a line comment can sit.
 *
 * @example diffLinesByPath(diff).get('src/a.ts') // Set { 10, 11, 12 }
 */
export function diffLinesByPath(diff: string): Map<string, Set<number>> {
  const texts = diffLineTextsByPath(diff);
  return new Map([...texts].map(([path, lines]) => [path, new Set(lines.keys())]));
}

/**
 * The text of each added and context line of the new file, per path after the change, from a
 * whole unified diff: where a line comment can sit, and what its finding's fingerprint is made of.
 *
 * @example diffLineTextsByPath(diff).get('src/a.ts')?.get(2) // 'const b = 2;'
 */
export function diffLineTextsByPath(diff: string): Map<string, Map<number, string>> {
  const lines = new Map<string, Map<number, string>>();
  for (const file of parseDiff(diff)) {
    if (file.deleted || file.to === undefined || file.to === '/dev/null') continue;
    const shown = new Map<number, string>();
    for (const chunk of file.chunks) {
      for (const change of chunk.changes) {
        if (change.type === 'add') shown.set(change.ln, change.content.slice(1));
        else if (change.type === 'normal') shown.set(change.ln2, change.content.slice(1));
      }
    }
    lines.set(file.to, shown);
  }
  return lines;
}

/**
 * Each changed file's added lines of the new file, by its path after the change: the lines a
 * forge that tells added from context lines (Bitbucket Data Center's `lineType`) anchors as added.
 *
 * @example addedLinesByPath(diff).get('src/a.ts') // Set { 11 }
 */
export function addedLinesByPath(diff: string): Map<string, Set<number>> {
  const lines = new Map<string, Set<number>>();
  for (const file of parseDiff(diff)) {
    if (file.deleted || file.to === undefined || file.to === '/dev/null') continue;
    const added = new Set<number>();
    for (const chunk of file.chunks) {
      for (const change of chunk.changes) if (change.type === 'add') added.add(change.ln);
    }
    lines.set(file.to, added);
  }
  return lines;
}
