/**
 * Rows as SQLite returns them, checked and turned into the core's types. Everything read from
 * the file passes a schema: another process (or an older version) may have written it.
 */
import type { DeliveryRecord, Subscription } from '@webhook-gateway/core';
import { z } from 'zod';
import type { SubscriptionRow } from './statements.js';

/** A TEXT column holding JSON that must match `schema`. */
function jsonColumn<T extends z.ZodType>(schema: T) {
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

const attemptSchema = z.object({
  attempt: z.number().int(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  error: z.string().nullable(),
});

const agentAccountingSchema = z.object({
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
      }),
    )
    .optional(),
  usage: z
    .object({
      promptTokens: z.number(),
      completionTokens: z.number(),
      totalTokens: z.number(),
    })
    .optional(),
});

const deliveryRowSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  route: z.string(),
  event: z.string(),
  action: z.string().nullable(),
  delivery_id: z.string(),
  received_at: z.number(),
  payload: jsonColumn(z.record(z.string(), z.unknown())),
  headers: jsonColumn(z.record(z.string(), z.string())),
  order_key: z.string().nullable(),
  max_attempts: z.number().int(),
  status: z.enum(['queued', 'running', 'delivered', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: z.number(),
  prompt: z.string().nullable(),
  answer: z.string().nullable(),
  last_error: z.string().nullable(),
  started_at: z.number().nullable(),
  finished_at: z.number().nullable(),
  attempt_log: jsonColumn(z.array(attemptSchema)),
  agent: jsonColumn(agentAccountingSchema).nullable(),
});

const subscriptionRowSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  events: jsonColumn(z.array(z.string())),
  prompt: z.string().nullable(),
  deliver: z.string(),
  deliver_chat_id: z.string().nullable(),
  skills: jsonColumn(z.array(z.string())),
  secret: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
});

/** Names the row and every problem, so a damaged file can be found and fixed. */
function describeBadRow(table: string, row: unknown, error: z.ZodError): Error {
  const key =
    row && typeof row === 'object' && 'id' in row
      ? String(row.id)
      : row && typeof row === 'object' && 'name' in row
        ? String(row.name)
        : '?';
  const problems = error.issues.map(
    (issue) => `${issue.path.join('.') || '(row)'} ${issue.message}`,
  );
  return new Error(
    `the ${table} row "${key}" in the journal is damaged: ${problems.join('; ')}; ` +
      `delete that row or restore the file from a backup`,
  );
}

/** A `deliveries` row as the core's `DeliveryRecord`. */
export function deliveryFromRow(row: unknown): DeliveryRecord {
  const parsed = deliveryRowSchema.safeParse(row);
  if (!parsed.success) throw describeBadRow('deliveries', row, parsed.error);
  const r = parsed.data;
  return {
    id: r.id,
    seq: r.seq,
    route: r.route,
    event: r.event,
    action: r.action,
    deliveryId: r.delivery_id,
    receivedAt: r.received_at,
    payload: r.payload,
    headers: r.headers,
    orderKey: r.order_key,
    maxAttempts: r.max_attempts,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    prompt: r.prompt,
    answer: r.answer,
    lastError: r.last_error,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    attemptLog: r.attempt_log,
    agent: r.agent,
  };
}

/** A `subscriptions` row as the core's `Subscription`. */
export function subscriptionFromRow(row: unknown): Subscription {
  const parsed = subscriptionRowSchema.safeParse(row);
  if (!parsed.success) throw describeBadRow('subscriptions', row, parsed.error);
  const r = parsed.data;
  return {
    name: r.name,
    description: r.description,
    events: r.events,
    prompt: r.prompt,
    deliver: r.deliver,
    deliverChatId: r.deliver_chat_id,
    skills: r.skills,
    secret: r.secret,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The bind parameters of a `subscriptions` row. */
export function subscriptionToRow(subscription: Subscription): SubscriptionRow {
  return {
    name: subscription.name,
    description: subscription.description,
    events: JSON.stringify(subscription.events),
    prompt: subscription.prompt,
    deliver: subscription.deliver,
    deliver_chat_id: subscription.deliverChatId,
    skills: JSON.stringify(subscription.skills),
    secret: subscription.secret,
    created_at: subscription.createdAt,
    updated_at: subscription.updatedAt,
  };
}
