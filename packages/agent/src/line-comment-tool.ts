/**
 * The `comment_on_line` tool as the model sees it: a remark on one line of the pull or merge
 * request's new code (or a range ending there, with a suggested replacement), collected next to the answer (review targets post it on the line, others
 * print it after the answer). A bad call is an answer to the model, never a crash.
 */
import { lineCommentPlace, lineCommentSchema, type LineComment } from '@webhook-gateway/core';
import type { ToolDefinition } from './chat-schema.js';

export const LINE_COMMENT_TOOL_NAME = 'comment_on_line';

export const LINE_COMMENT_TOOL: ToolDefinition = Object.freeze({
  type: 'function',
  function: {
    name: LINE_COMMENT_TOOL_NAME,
    description:
      'Leave a review comment on one line of the new code of the pull or merge request. ' +
      'Call it once per remark; your final message is the summary of the review.',
    parameters: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'The file path as the diff names it, e.g. "src/a.ts".',
        },
        line: {
          type: 'integer',
          minimum: 1,
          description: 'The line number in the new version of the file.',
        },
        body: { type: 'string', description: 'The comment (Markdown).' },
        suggestion: {
          type: 'string',
          description:
            'Optional: the exact text that replaces the commented line (or lines start_line to ' +
            'line), offered to the author as a change to commit. An empty string deletes them.',
        },
        start_line: {
          type: 'integer',
          minimum: 1,
          description:
            'Optional: the first line of a range ending at `line` (in the new file, at most `line`).',
        },
      },
      required: ['path', 'line', 'body'],
      additionalProperties: false,
    },
  },
});

/** A call's arguments read, or what to tell the model about them. */
export type LineCommentArguments =
  { ok: true; comment: LineComment } | { ok: false; error: string };

const USAGE =
  'send {"path": "<file>", "line": <line in the new file>, "body": "<comment>"}, ' +
  'optionally with "suggestion": "<replacement text>" and "start_line": <first line of the range>';

/**
 * Reads the JSON text the model wrote as `arguments` of a `comment_on_line` call.
 *
 * @example parseLineCommentArguments('{"path":"a.ts","line":3,"body":"typo"}')
 * // { ok: true, comment: { path: 'a.ts', line: 3, body: 'typo' } }
 */
export function parseLineCommentArguments(text: string): LineCommentArguments {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: `the arguments are not valid JSON; ${USAGE}` };
  }
  const parsed = lineCommentSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`,
    );
    return { ok: false, error: `${problems.join('; ')}; ${USAGE}` };
  }
  return { ok: true, comment: parsed.data };
}

/** What the model gets back for a comment it left. */
export function lineCommentResult(comment: LineComment, count: number): string {
  return JSON.stringify({ ok: true, comment: lineCommentPlace(comment), comments: count });
}
