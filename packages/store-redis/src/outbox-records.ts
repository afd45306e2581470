/** Outbox messages as Redis holds them (hash fields, all strings) and as core types. */
import type { OutboxClaim, OutboxMessage } from '@webhook-gateway/core';
import { z } from 'zod';
import { hashFromFlatReply } from './records.js';

const intField = z
  .string()
  .regex(/^-?\d+$/, 'is not a whole number')
  .transform((text) => Number(text));

const outboxHashSchema = z.object({
  id: z.string(),
  destination: z.string(),
  body: z.string(),
  createdAt: intField,
  expiresAt: intField,
  attempts: intField,
  lastError: z.string().optional(),
  claim: z.string(),
  traceContext: z.string().optional(),
});

const claimReplySchema = z.tuple([z.number().int(), z.array(z.array(z.string()))]);

/** The claim script's reply (`CLAIM_OUTBOX`) as an `OutboxClaim`; a damaged one names its key. */
export function outboxClaimFromReply(reply: unknown, prefix: string): OutboxClaim {
  const parsed = claimReplySchema.safeParse(reply);
  if (!parsed.success) throw new Error(`the outbox claim script answered ${JSON.stringify(reply)}`);
  const [expired, hashes] = parsed.data;
  const messages = hashes.map((flat): OutboxMessage => {
    const hash = hashFromFlatReply(flat) ?? {};
    const message = outboxHashSchema.safeParse(hash);
    if (!message.success) {
      const problems = message.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
      throw new Error(
        `the outbox message at Redis key "${prefix}${hash.id ?? '?'}" is damaged: ${problems.join('; ')}; delete the key`,
      );
    }
    const { lastError, traceContext, ...rest } = message.data;
    return {
      ...rest,
      lastError: lastError ?? null,
      ...(traceContext !== undefined ? { traceContext } : {}),
    };
  });
  return { expired, messages };
}
