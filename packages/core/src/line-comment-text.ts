/**
 * A line comment as plain text, for places that cannot show it on its lines (targets without
 * lines, a review body holding comments the forge refused): where it is, and its suggestion as
 * text a person can read and copy, never a block the forge would offer to commit.
 */

/** Where a line comment sits (`LineComment`'s fields, named here so delivery.ts can import this). */
interface CommentPlace {
  path: string;
  line: number;
  start_line?: number;
}

/**
 * `path:line`, or `path:start-line` for a range.
 *
 * @example lineCommentPlace({ path: 'src/a.ts', line: 5, start_line: 3 }) // 'src/a.ts:3-5'
 */
export function lineCommentPlace(comment: CommentPlace): string {
  const start = comment.start_line;
  return start !== undefined && start < comment.line
    ? `${comment.path}:${start}-${comment.line}`
    : `${comment.path}:${comment.line}`;
}

/**
 * A fence of backticks longer than any run of backticks in `text`, so the text cannot close it.
 *
 * @example codeFence('a ``` b') // '````'
 */
export function codeFence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * A suggestion as text: a heading and the replacement in a plain code block (an empty one says
 * the lines are deleted).
 *
 * @example suggestionAsText('const b = 2;') // 'Suggested change:\n```\nconst b = 2;\n```'
 */
export function suggestionAsText(suggestion: string): string {
  if (suggestion === '') return 'Suggested change: delete these lines.';
  const fence = codeFence(suggestion);
  return `Suggested change:\n${fence}\n${suggestion.replace(/\n$/, '')}\n${fence}`;
}
