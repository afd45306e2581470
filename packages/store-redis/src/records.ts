/**
 * Journal rows and subscriptions as Redis holds them (hash fields, all strings) and as core types.
 * Everything read back passes a schema: another process, or another version, may have written it.
 * A null is an absent field.
 */
import type { DeliveryRecord, NewDelivery, Subscription } from '@webhook-gateway/core';
import {
  agentAccountingSchema,
  attemptLogSchema,
  deliveryStatusSchema,
  lineCommentsSchema,
  reviewConclusionSchema,
  deliverySafetySchema,
  jsonTextSchema,
  journalJson,
} from '@webhook-gateway/core/store-kit';
import { z } from 'zod';

/** A field holding a whole number (times in ms, counters). */
const intField = z
  .string()
  .regex(/^-?\d+$/, 'is not a whole number')
  .transform((text) => Number(text));

const deliveryHashSchema = z.object({
  id: z.string(),
  seq: intField,
  rev: intField,
  route: z.string(),
  event: z.string(),
  action: z.string().optional(),
  deliveryId: z.string(),
  receivedAt: intField,
  payload: jsonTextSchema(z.record(z.string(), z.unknown())),
  headers: jsonTextSchema(z.record(z.string(), z.string())),
  authScheme: z.string().optional(),
  traceContext: z.string().optional(),
  orderKey: z.string().optional(),
  maxAttempts: intField,
  status: deliveryStatusSchema,
  attempts: intField,
  nextAttemptAt: intField,
  prompt: z.string().optional(),
  answer: z.string().optional(),
  lastError: z.string().optional(),
  startedAt: intField.optional(),
  finishedAt: intField.optional(),
  attemptLog: jsonTextSchema(attemptLogSchema),
  agent: jsonTextSchema(agentAccountingSchema).optional(),
  lineComments: jsonTextSchema(lineCommentsSchema).optional(),
  conclusion: jsonTextSchema(reviewConclusionSchema).optional(),
  partial: z.literal('1').optional(),
  safety: jsonTextSchema(deliverySafetySchema).optional(),
  supersededBy: z.string().optional(),
  coalesced: intField.optional(),
  burstStartedAt: intField.optional(),
});

/** What one key's problems look like to a person who has to fix them. */
function damaged(what: string, key: string, error: z.ZodError): Error {
  const problems = error.issues.map(
    (issue) => `${issue.path.join('.') || '(value)'} ${issue.message}`,
  );
  return new Error(
    `the ${what} at Redis key "${key}" is damaged: ${problems.join('; ')}; delete the key or restore Redis from a backup`,
  );
}

/** A journal row with the store's revision counter (bumped by every guarded change). */
export type StoredDelivery = DeliveryRecord & { rev: number };

/** A delivery hash (HGETALL) as a `DeliveryRecord`. */
export function deliveryFromHash(hash: Record<string, string>, key: string): StoredDelivery {
  const parsed = deliveryHashSchema.safeParse(hash);
  if (!parsed.success) throw damaged('journal row', key, parsed.error);
  const h = parsed.data;
  return {
    id: h.id,
    seq: h.seq,
    rev: h.rev,
    route: h.route,
    event: h.event,
    action: h.action ?? null,
    deliveryId: h.deliveryId,
    receivedAt: h.receivedAt,
    payload: h.payload,
    headers: h.headers,
    ...(h.authScheme !== undefined ? { authScheme: h.authScheme } : {}),
    ...(h.traceContext !== undefined ? { traceContext: h.traceContext } : {}),
    orderKey: h.orderKey ?? null,
    maxAttempts: h.maxAttempts,
    status: h.status,
    attempts: h.attempts,
    nextAttemptAt: h.nextAttemptAt,
    prompt: h.prompt ?? null,
    answer: h.answer ?? null,
    lastError: h.lastError ?? null,
    startedAt: h.startedAt ?? null,
    finishedAt: h.finishedAt ?? null,
    attemptLog: h.attemptLog,
    agent: h.agent ?? null,
    ...(h.lineComments !== undefined ? { lineComments: h.lineComments } : {}),
    ...(h.conclusion !== undefined ? { conclusion: h.conclusion } : {}),
    ...(h.partial !== undefined ? { partial: true as const } : {}),
    ...(h.safety !== undefined ? { safety: h.safety } : {}),
    ...(h.supersededBy !== undefined ? { supersededBy: h.supersededBy } : {}),
    ...(h.coalesced !== undefined ? { coalesced: h.coalesced } : {}),
    ...(h.burstStartedAt !== undefined ? { burstStartedAt: h.burstStartedAt } : {}),
  };
}

/** Drops the store's bookkeeping from a row before it leaves the store. */
export function publicRecord(stored: StoredDelivery): DeliveryRecord {
  const { rev: _rev, ...record } = stored;
  return record;
}

/** A flat `[field, value, field, value, …]` reply (HGETALL from a script) as an object. */
export function hashFromFlatReply(reply: unknown): Record<string, string> | undefined {
  if (!Array.isArray(reply)) return undefined;
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) {
    const field: unknown = reply[i];
    const value: unknown = reply[i + 1];
    if (typeof field === 'string' && typeof value === 'string') hash[field] = value;
  }
  return hash;
}

/** The hash fields of a newly accepted row (the accept script adds `seq`). */
export function newDeliveryFields(delivery: NewDelivery, id: string): string[] {
  const fields: [string, string][] = [
    ['id', id],
    ['rev', '0'],
    ['route', delivery.route],
    ['event', delivery.event],
    ['deliveryId', delivery.deliveryId],
    ['receivedAt', String(delivery.receivedAt)],
    ['payload', delivery.payloadJson ?? journalJson(delivery.payload, 'payload', delivery)],
    ['headers', journalJson(delivery.headers, 'headers', delivery)],
    ['maxAttempts', String(delivery.maxAttempts)],
    ['status', 'queued'],
    ['attempts', '0'],
    ['nextAttemptAt', String(delivery.receivedAt)],
    ['attemptLog', '[]'],
  ];
  if (delivery.action !== null) fields.push(['action', delivery.action]);
  if (delivery.orderKey !== null) fields.push(['orderKey', delivery.orderKey]);
  if (delivery.authScheme !== undefined) fields.push(['authScheme', delivery.authScheme]);
  if (delivery.traceContext !== undefined) fields.push(['traceContext', delivery.traceContext]);
  return fields.flat();
}

const subscriptionSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  prompt: z.string().nullable(),
  deliver: z.string(),
  deliverChatId: z.string().nullable(),
  skills: z.array(z.string()),
  secret: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** A subscription's JSON (one field of the subscriptions hash) as a `Subscription`. */
export function subscriptionFromJson(text: string, key: string, name: string): Subscription {
  const parsed = jsonTextSchema(subscriptionSchema).safeParse(text);
  if (!parsed.success) throw damaged(`subscription "${name}"`, key, parsed.error);
  return parsed.data;
}

/** The JSON a subscription is kept as. */
export function subscriptionToJson(subscription: Subscription): string {
  const plain: z.infer<typeof subscriptionSchema> = {
    name: subscription.name,
    description: subscription.description,
    events: subscription.events,
    prompt: subscription.prompt,
    deliver: subscription.deliver,
    deliverChatId: subscription.deliverChatId,
    skills: subscription.skills,
    secret: subscription.secret,
    createdAt: subscription.createdAt,
    updatedAt: subscription.updatedAt,
  };
  return JSON.stringify(plain);
}
