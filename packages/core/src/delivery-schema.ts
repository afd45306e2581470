/**
 * zod schemas of a journal row's JSON parts (status, attempt log, agent accounting), for stores
 * that read rows another process, or an older version, may have written.
 */
import { z } from 'zod';
import { DELIVERY_STATUSES } from './delivery.js';

/** A string holding JSON that must match `schema` (a TEXT column, a hash field). */
export function jsonTextSchema<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        ctx.issues.push({ code: 'custom', message: 'is not valid JSON', input: text });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

export const deliveryStatusSchema = z.enum(DELIVERY_STATUSES);

const attemptRecordSchema = z.object({
  attempt: z.number().int(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  error: z.string().nullable(),
});

export const attemptLogSchema = z.array(attemptRecordSchema);

export const agentAccountingSchema = z.object({
  runner: z.string(),
  model: z.string().optional(),
  turns: z.number().optional(),
  toolCalls: z
    .array(
      z.object({
        tool: z.string(),
        command: z.string(),
        exitCode: z.number().nullable(),
        durationMs: z.number(),
        refused: z.string().optional(),
      }),
    )
    .optional(),
  usage: z
    .object({
      promptTokens: z.number(),
      // Rows written before cached tokens were counted have none: read as they are (0).
      cachedPromptTokens: z.number().optional(),
      completionTokens: z.number(),
      totalTokens: z.number(),
    })
    .optional(),
  cost: z.object({ amount: z.number(), currency: z.string() }).optional(),
});

/**
 * One line comment of an agent (`LineComment`): a path, a line of the new file, a body; with
 * `start_line` it covers lines `start_line`–`line`, with `suggestion` it offers their replacement.
 */
export const lineCommentSchema = z
  .object({
    path: z.string().min(1),
    line: z.number().int().positive(),
    body: z.string().min(1),
    // Empty is a suggestion too: it deletes the lines.
    suggestion: z.string().optional(),
    start_line: z.number().int().positive().optional(),
  })
  .refine((comment) => comment.start_line === undefined || comment.start_line <= comment.line, {
    message: 'start_line must not be after line (a range is start_line to line, both included)',
    path: ['start_line'],
  });

export const lineCommentsSchema = z.array(lineCommentSchema);

/** An agent's verdict on a review (`ReviewConclusion`). */
export const reviewConclusionSchema = z.object({
  value: z.enum(['success', 'neutral', 'failure']),
  reason: z.string().optional(),
});

/** A row's `safety` (`DeliverySafety`): redaction count, hidden content removed per field. */
export const deliverySafetySchema = z.object({
  redactions: z.number().int().nonnegative().optional(),
  hidden: z
    .array(z.object({ field: z.string(), removed: z.record(z.string(), z.number().int()) }))
    .optional(),
});
