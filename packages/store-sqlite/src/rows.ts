/**
 * Rows as SQLite returns them, checked and turned into the core's types. Everything read from
 * the file passes a schema: another process (or an older version) may have written it.
 */
import {
  type OutboxMessage,
  type DeliveryOutline,
  type DeliveryRecord,
  type DeliveryStatus,
  type Pause,
  type QueuedDelivery,
  type Subscription,
  DELIVERY_STATUSES,
} from '@webhook-gateway/core';
import {
  agentAccountingSchema,
  attemptLogSchema,
  lineCommentsSchema,
  deliverySafetySchema,
  jsonTextSchema,
  reviewConclusionSchema,
} from '@webhook-gateway/core/store-kit';
import { z } from 'zod';
import type { SubscriptionRow } from './statements.js';

const subscriptionRowSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  events: jsonTextSchema(z.array(z.string())),
  prompt: z.string().nullable(),
  deliver: z.string(),
  deliver_chat_id: z.string().nullable(),
  skills: jsonTextSchema(z.array(z.string())),
  secret: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
});

const pauseRowSchema = z.object({
  route: z.string(),
  reason: z.string().nullable(),
  since: z.number(),
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
  return damagedRow(table, key, problems);
}

function damagedRow(table: string, key: string, problems: readonly string[]): Error {
  return new Error(
    `the ${table} row "${key}" in the journal is damaged: ${problems.join('; ')}; ` +
      `delete that row or restore the file from a backup`,
  );
}

/**
 * Checks a `deliveries` row by hand: this runs for every delivery a worker starts, and a deep
 * schema over the ~6 KB payload cost more than the rest of the read. The payload is parsed once
 * and checked to be a plain object; only the small JSON columns go through zod. Every problem
 * is collected, as with a schema, so the message names them all.
 */
class RowChecker {
  readonly problems: string[] = [];
  constructor(private readonly row: Record<string, unknown>) {}

  private problem(column: string, message: string): void {
    this.problems.push(`${column} ${message}`);
  }

  string(column: string): string {
    const value = this.row[column];
    if (typeof value !== 'string') this.problem(column, `expected string, got ${typeOf(value)}`);
    return value as string;
  }

  nullableString(column: string): string | null {
    const value = this.row[column];
    if (value === null) return null;
    return this.string(column);
  }

  number(column: string, integer = false): number {
    const value = this.row[column];
    if (typeof value !== 'number' || Number.isNaN(value))
      this.problem(column, `expected number, got ${typeOf(value)}`);
    else if (integer && !Number.isSafeInteger(value)) this.problem(column, 'expected int');
    return value as number;
  }

  nullableNumber(column: string): number | null {
    const value = this.row[column];
    if (value === null) return null;
    return this.number(column);
  }

  /** Parses a JSON column; `undefined` (with a problem recorded) when it cannot. */
  json(column: string): unknown {
    const text = this.string(column);
    if (typeof text !== 'string') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      this.problem(column, 'is not valid JSON');
      return undefined;
    }
  }

  /** A JSON object column (the payload): parsed, and checked to be an object, nothing deeper. */
  jsonObject(column: string): Record<string, unknown> {
    const value = this.json(column);
    if (value !== undefined && !isPlainObject(value))
      this.problem(column, `expected record, got ${typeOf(value)}`);
    return value as Record<string, unknown>;
  }

  /** A JSON object of strings (the headers), every entry checked. */
  jsonStringRecord(column: string): Record<string, string> {
    const value = this.jsonObject(column);
    if (isPlainObject(value)) {
      for (const [key, entry] of Object.entries(value)) {
        if (typeof entry !== 'string')
          this.problem(`${column}.${key}`, `expected string, got ${typeOf(entry)}`);
      }
    }
    return value as Record<string, string>;
  }

  /** A small JSON column checked with `schema`. */
  jsonSchema<T extends z.ZodType>(column: string, schema: T): z.output<T> {
    const value = this.json(column);
    if (value === undefined) return undefined as z.output<T>;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues)
      this.problem([column, ...issue.path.map(String)].join('.'), issue.message);
    return undefined as z.output<T>;
  }

  status(column: string): DeliveryStatus {
    const value = this.row[column];
    if (!STATUSES.has(value))
      this.problem(column, `expected one of ${DELIVERY_STATUSES.join('|')}`);
    return value as DeliveryStatus;
  }
}

const STATUSES: ReadonlySet<unknown> = new Set<DeliveryStatus>(DELIVERY_STATUSES);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** Reads a `deliveries` row with `read`, then throws naming every problem `read` found. */
function checkedDeliveriesRow<T>(
  row: unknown,
  read: (c: RowChecker, row: Record<string, unknown>) => T,
): T {
  if (!isPlainObject(row)) {
    throw damagedRow('deliveries', '?', [`(row) expected object, got ${typeOf(row)}`]);
  }
  const c = new RowChecker(row);
  const result = read(c, row);
  if (c.problems.length > 0) throw damagedRow('deliveries', String(row.id), c.problems);
  return result;
}

/** A `deliveries` row as the core's `DeliveryRecord`. */
export function deliveryFromRow(row: unknown): DeliveryRecord {
  return checkedDeliveriesRow(row, (c, row) => {
    const record: DeliveryRecord = {
      id: c.string('id'),
      seq: c.number('seq', true),
      route: c.string('route'),
      event: c.string('event'),
      action: c.nullableString('action'),
      deliveryId: c.string('delivery_id'),
      receivedAt: c.number('received_at'),
      payload: c.jsonObject('payload'),
      headers: c.jsonStringRecord('headers'),
      orderKey: c.nullableString('order_key'),
      maxAttempts: c.number('max_attempts', true),
      status: c.status('status'),
      attempts: c.number('attempts', true),
      nextAttemptAt: c.number('next_attempt_at'),
      prompt: c.nullableString('prompt'),
      answer: c.nullableString('answer'),
      lastError: c.nullableString('last_error'),
      startedAt: c.nullableNumber('started_at'),
      finishedAt: c.nullableNumber('finished_at'),
      attemptLog: c.jsonSchema('attempt_log', attemptLogSchema),
      agent: row.agent === null ? null : c.jsonSchema('agent', agentAccountingSchema),
    };
    // Rows from before schema version 4 have no column; NULL is an INSECURE_NO_AUTH route.
    const authScheme = row.auth_scheme === undefined ? null : c.nullableString('auth_scheme');
    if (authScheme !== null) record.authScheme = authScheme;
    // Rows from before the trace context's migration have no column; NULL: tracing was off.
    const traceContext = row.trace_context === undefined ? null : c.nullableString('trace_context');
    if (traceContext !== null) record.traceContext = traceContext;
    // Rows from before schema version 5 have no column.
    const supersededBy = row.superseded_by === undefined ? null : c.nullableString('superseded_by');
    if (supersededBy !== null) record.supersededBy = supersededBy;
    // Rows from before schema version 8 have no column; NULL is a run without line comments.
    if (row.line_comments !== undefined && row.line_comments !== null)
      record.lineComments = c.jsonSchema('line_comments', lineCommentsSchema);
    // Rows from before schema version 14 have no column; NULL is a run without a verdict.
    if (row.conclusion !== undefined && row.conclusion !== null)
      record.conclusion = c.jsonSchema('conclusion', reviewConclusionSchema);
    // Rows from before schema version 16 have no column; NULL is a complete answer.
    if (row.partial !== undefined && c.nullableNumber('partial') === 1) record.partial = true;
    // Rows from before the safety migration have no column; NULL is nothing taken out.
    if (row.safety !== undefined && row.safety !== null)
      record.safety = c.jsonSchema('safety', deliverySafetySchema);
    // Rows from before schema version 12 have no columns; NULL is a row of no `coalesce` route.
    const coalesced = row.coalesced === undefined ? null : c.nullableNumber('coalesced');
    if (coalesced !== null) record.coalesced = coalesced;
    const burstStartedAt =
      row.burst_started_at === undefined ? null : c.nullableNumber('burst_started_at');
    if (burstStartedAt !== null) record.burstStartedAt = burstStartedAt;
    return record;
  });
}

const supersededRowSchema = z.object({
  id: z.string(),
  received_at: z.number(),
  coalesced: z.number().nullable(),
  burst_started_at: z.number().nullable(),
});

/** A row a supersede ended, as a coalescing accept reads it (`coalescedTiming`). */
export function supersededFromRow(row: unknown): {
  id: string;
  receivedAt: number;
  coalesced?: number;
  burstStartedAt?: number;
} {
  const parsed = supersededRowSchema.safeParse(row);
  if (!parsed.success) throw describeBadRow('deliveries', row, parsed.error);
  const { id, received_at, coalesced, burst_started_at } = parsed.data;
  return {
    id,
    receivedAt: received_at,
    ...(coalesced !== null ? { coalesced } : {}),
    ...(burst_started_at !== null ? { burstStartedAt: burst_started_at } : {}),
  };
}

/** The outline columns of a `deliveries` row, checked like a whole row. */
export function outlineFromRow(row: unknown): DeliveryOutline {
  return checkedDeliveriesRow(row, (c, row): DeliveryOutline => ({
    id: c.string('id'),
    route: c.string('route'),
    status: c.status('status'),
    receivedAt: c.number('received_at'),
    attemptLog: c.jsonSchema('attempt_log', attemptLogSchema),
    agent: row.agent === null ? null : c.jsonSchema('agent', agentAccountingSchema),
  }));
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

/** A `pauses` row as core's `Pause` (`''` is every route). */
export function pauseFromRow(row: unknown): Pause {
  const parsed = pauseRowSchema.safeParse(row);
  if (!parsed.success) throw describeBadRow('pauses', row, parsed.error);
  const r = parsed.data;
  return { route: r.route === '' ? null : r.route, reason: r.reason, since: r.since };
}

/** The `pauses` key of a route (null: every route). */
export function pauseRouteKey(route: string | null): string {
  return route ?? '';
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

const queuedRowSchema = z.object({
  id: z.string(),
  seq: z.number(),
  route: z.string(),
  delivery_id: z.string(),
  order_key: z.string().nullable(),
  next_attempt_at: z.number(),
  attempts: z.number(),
});

/** A queued row's scheduling columns (the poll reads no payload). */
export function queuedFromRow(row: unknown): QueuedDelivery {
  const parsed = queuedRowSchema.safeParse(row);
  if (!parsed.success) throw describeBadRow('deliveries', row, parsed.error);
  const { id, seq, route, delivery_id, order_key, next_attempt_at, attempts } = parsed.data;
  return {
    id,
    seq,
    route,
    deliveryId: delivery_id,
    orderKey: order_key,
    nextAttemptAt: next_attempt_at,
    attempts,
  };
}

const outboxRowSchema = z.object({
  id: z.string(),
  destination: z.string(),
  body: z.string(),
  created_at: z.number(),
  expires_at: z.number(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  claim: z.string(),
  trace_context: z.string().nullable(),
});

/** A claimed `outbox` row as the core's `OutboxMessage`. */
export function outboxFromRow(row: unknown): OutboxMessage {
  const parsed = outboxRowSchema.safeParse(row);
  if (!parsed.success) throw describeBadRow('outbox', row, parsed.error);
  const r = parsed.data;
  return {
    id: r.id,
    destination: r.destination,
    body: r.body,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    attempts: r.attempts,
    lastError: r.last_error,
    claim: r.claim,
    ...(r.trace_context !== null ? { traceContext: r.trace_context } : {}),
  };
}
