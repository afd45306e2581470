/**
 * The `set_conclusion` tool as the model sees it: the review's verdict, which a check run or
 * commit status shows as the merge gate. Offered only on routes that show a check
 * (`deliver_extra.check: true`), so other routes do not pay its tokens. The last call wins; a bad
 * call is an answer to the model, never a crash.
 */
import { reviewConclusionSchema, type ReviewConclusion } from '@webhook-gateway/core';
import { z } from 'zod';
import type { ToolDefinition } from './chat-schema.js';

export const CONCLUSION_TOOL_NAME = 'set_conclusion';

export const CONCLUSION_TOOL: ToolDefinition = Object.freeze({
  type: 'function',
  function: {
    name: CONCLUSION_TOOL_NAME,
    description:
      'Set the verdict of the review, shown as the check that gates the merge: "failure" when ' +
      'the change must not be merged as it is, "success" when it may, "neutral" otherwise. ' +
      'Call it once, before your final message.',
    parameters: {
      type: 'object',
      properties: {
        conclusion: { type: 'string', enum: ['success', 'neutral', 'failure'] },
        reason: { type: 'string', description: 'Why, in one short sentence.' },
      },
      required: ['conclusion', 'reason'],
      additionalProperties: false,
    },
  },
});

const argumentsSchema = z.object({
  conclusion: reviewConclusionSchema.shape.value,
  reason: z.string().optional(),
});

const USAGE = 'send {"conclusion": "success" | "neutral" | "failure", "reason": "<why>"}';

/** Whether a route shows a check, so its runs are offered `set_conclusion`. */
export function wantsConclusion(deliverExtra: Record<string, unknown>): boolean {
  return deliverExtra.check === true;
}

/**
 * Reads the JSON text the model wrote as `arguments` of a `set_conclusion` call.
 *
 * @example parseConclusionArguments('{"conclusion":"failure","reason":"a leaked key"}')
 * // { ok: true, conclusion: { value: 'failure', reason: 'a leaked key' } }
 */
export function parseConclusionArguments(
  text: string,
): { ok: true; conclusion: ReviewConclusion } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: `the arguments are not valid JSON; ${USAGE}` };
  }
  const parsed = argumentsSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`,
    );
    return { ok: false, error: `${problems.join('; ')}; ${USAGE}` };
  }
  const { conclusion, reason } = parsed.data;
  const trimmed = reason?.trim();
  return { ok: true, conclusion: { value: conclusion, ...(trimmed ? { reason: trimmed } : {}) } };
}
