/**
 * The `command` runner's review document: a program that prints exactly
 * `{"summary": "…", "comments": [{"path": "src/a.ts", "line": 12, "body": "…"}]}` on stdout gives
 * a summary and line comments (and, optionally, `"conclusion": "success" | "neutral" | "failure"`
 * with a `"conclusion_reason"`, for a check); any other output is the answer as it is.
 */
import { lineCommentSchema, type LineComment, type ReviewConclusion } from '@webhook-gateway/core';
import { z } from 'zod';

const reviewDocumentSchema = z.strictObject({
  summary: z.string(),
  comments: z.array(lineCommentSchema),
  conclusion: z.enum(['success', 'neutral', 'failure']).optional(),
  conclusion_reason: z.string().optional(),
});

/** What a program's stdout says: a summary with its line comments. */
export interface ReviewOutput {
  summary: string;
  lineComments: LineComment[];
  /** The document's verdict, when it gave one. */
  conclusion?: ReviewConclusion;
  /** Why output that looked like a review document was taken as plain text (for the log). */
  notADocument?: string;
}

/**
 * Reads a program's stdout as a review document, or as a plain answer.
 *
 * @example readReviewOutput('{"summary":"ok","comments":[]}') // { summary: 'ok', lineComments: [] }
 * @example readReviewOutput('LGTM') // { summary: 'LGTM', lineComments: [] }
 */
export function readReviewOutput(stdout: string): ReviewOutput {
  const plain: ReviewOutput = { summary: stdout, lineComments: [] };
  const text = stdout.trim();
  if (!text.startsWith('{')) return plain;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return plain;
  }
  const parsed = reviewDocumentSchema.safeParse(value);
  if (parsed.success) {
    const { summary, comments, conclusion, conclusion_reason: reason } = parsed.data;
    return {
      summary,
      lineComments: comments,
      ...(conclusion
        ? { conclusion: { value: conclusion, ...(reason === undefined ? {} : { reason }) } }
        : {}),
    };
  }
  // A JSON object naming `summary` was meant as a document: say why it was not taken as one.
  const meant = typeof value === 'object' && value !== null && 'summary' in value;
  if (!meant) return plain;
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.join('.') || '(document)'}: ${issue.message}`,
  );
  return { ...plain, notADocument: problems.join('; ') };
}
