/**
 * The options of `webhook subscribe|list|remove|test`, checked with zod: commander hands over
 * strings, these schemas turn them into typed values or a usage error that names the option.
 */
import { z } from 'zod';
import { subscriptionNameProblem } from './name.js';
import { failUsage } from './usage.js';

/** `a, b,,c` → `[a, b, c]`; an empty string is an empty list (clears the field). */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const homeShape = {
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
};

const listOption = z.string().transform(splitList);

export const subscribeOptionsSchema = z.object({
  ...homeShape,
  events: listOption.optional(),
  prompt: z.string().optional(),
  deliver: z.string().trim().min(1, { error: 'must name a target' }).optional(),
  deliverChatId: z.string().trim().optional(),
  skills: listOption.optional(),
  secret: z.string().min(1, { error: 'must not be empty' }).optional(),
  description: z.string().optional(),
  json: z.boolean().default(false),
});

/** The options of `list` and `remove`: the home and `--json`. */
export const homeOptionsSchema = z.object({ ...homeShape, json: z.boolean().default(false) });

/** A JSON object, as `--payload` must be (a forge never sends anything else). */
const payloadOption = z.string().transform((text, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `is not JSON (${(error as Error).message})` });
    return z.NEVER;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
    return z.NEVER;
  }
  return text;
});

export const testOptionsSchema = z.object({
  ...homeShape,
  payload: payloadOption.optional(),
  event: z.string().trim().min(1, { error: 'must not be empty' }).optional(),
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  json: z.boolean().default(false),
});

export type SubscribeOptions = z.infer<typeof subscribeOptionsSchema>;

/** `deliverChatId` → `--deliver-chat-id`. */
export function optionFlag(key: PropertyKey): string {
  return `--${String(key).replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** The first problem of options that do not fit `schema`, as one line naming the option. */
export function optionsProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid options';
  const key = issue.path[0];
  return key === undefined ? issue.message : `${optionFlag(key)} ${issue.message}`;
}

/** Parses commander's options with `schema`; a mismatch is a usage error (exit 2). */
export function parseOptions<Schema extends z.ZodType>(
  schema: Schema,
  raw: unknown,
): z.infer<Schema> {
  const result = schema.safeParse(raw);
  if (!result.success) failUsage(optionsProblem(result.error));
  return result.data;
}

/** The subscription name argument; an invalid one is a usage error (exit 2). */
export function parseName(name: string): string {
  const problem = subscriptionNameProblem(name);
  if (problem) failUsage(problem);
  return name;
}
