/**
 * The options of `deliveries list|show|replay`, checked with zod: commander hands over strings,
 * these schemas turn them into typed values or a usage error that names the option.
 */
import { DELIVERY_STATUSES } from '@webhook-gateway/core';
import { z } from 'zod';

/** The journal statuses `--status` accepts: core's list, in the order a delivery goes through them. */
export { DELIVERY_STATUSES };

/** How many rows `deliveries list` shows unless `--limit` says otherwise. */
export const DEFAULT_LIST_LIMIT = 50;

/** A bad option value: the CLI prints the message as one line and exits 2. */
export class OptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OptionsError';
  }
}

const homeShape = {
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
};

const positiveInteger = z
  .string()
  .regex(/^\s*\d+\s*$/, { error: 'must be a positive integer' })
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .min(1, { error: 'must be a positive integer' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' }),
  );

export const listOptionsSchema = z.object({
  ...homeShape,
  route: z.string().min(1, { error: 'must not be empty' }).optional(),
  status: z
    .enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(', ')}` })
    .optional(),
  limit: positiveInteger.optional(),
  json: z.boolean().default(false),
});

/** The options of `show` and `replay`: the home and `--json`. */
export const deliveryOptionsSchema = z.object({ ...homeShape, json: z.boolean().default(false) });

/** The id argument of `show` and `replay`: a journal id or the sender's delivery id. */
const deliveryIdArgumentSchema = z
  .string()
  .trim()
  .min(1, { error: 'the delivery id must not be empty' });

/** `limit` → `--limit`, `publicUrl` → `--public-url`: messages that read like the command line. */
function optionFlag(key: PropertyKey | undefined): string {
  if (key === undefined) return 'option';
  return `--${String(key).replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/**
 * Validates what commander parsed. Throws an {@link OptionsError} naming the first bad option
 * and the value given.
 *
 * @example
 * parseOptions(listOptionsSchema, { limit: '0' }); // throws: --limit must be a positive integer (got "0")
 */
export function parseOptions<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const key = issue?.path[0];
  const given =
    raw !== null && typeof raw === 'object' && key !== undefined
      ? (raw as Record<PropertyKey, unknown>)[key]
      : undefined;
  const got = typeof given === 'string' ? ` (got "${given}")` : '';
  throw new OptionsError(`${optionFlag(key)} ${issue?.message ?? 'is not valid'}${got}`);
}

/** Validates the id argument; an empty one is a usage error. */
export function parseDeliveryIdArgument(raw: unknown): string {
  const result = deliveryIdArgumentSchema.safeParse(raw);
  if (result.success) return result.data;
  throw new OptionsError(result.error.issues[0]?.message ?? 'the delivery id is not valid');
}
