/**
 * Hermes Agent's two files as they enter `import hermes`: `config.yaml` (only `platforms:` is
 * read; the rest is Hermes' own agent) and `webhook_subscriptions.json` (name → route). Every
 * part is loose on purpose: Hermes adds keys often, and an unknown key must be reported, not
 * refused.
 */
import fs from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** One of Hermes' routes (static or a subscription): the keys `import hermes` reads, and any other. */
const hermesRouteSchema = z.looseObject({
  deliver: z.string().optional(),
  deliver_extra: z.record(z.string(), z.unknown()).optional(),
  skills: z.array(z.string()).optional(),
  script: z.union([z.string(), z.array(z.string())]).optional(),
  filters: z.unknown().optional(),
  profile: z.unknown().optional(),
});
export type HermesRoute = z.infer<typeof hermesRouteSchema>;

const homeChannelSchema = z.looseObject({
  chat_id: z.union([z.string(), z.number()]).optional(),
  thread_id: z.union([z.string(), z.number()]).optional(),
});

/** A messaging platform's block (`platforms.telegram`). */
const hermesPlatformSchema = z.looseObject({
  enabled: z.boolean().optional(),
  token: z.string().optional(),
  api_key: z.string().optional(),
  home_channel: z.union([homeChannelSchema, z.string()]).optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type HermesPlatform = z.infer<typeof hermesPlatformSchema>;

const hermesWebhookSchema = z.looseObject({
  enabled: z.boolean().optional(),
  extra: z
    .looseObject({
      routes: z.record(z.string(), hermesRouteSchema).optional(),
    })
    .optional(),
});

const hermesConfigSchema = z.looseObject({
  platforms: z
    .looseObject({ webhook: hermesWebhookSchema.optional() })
    .catchall(hermesPlatformSchema)
    .optional(),
});
export type HermesConfig = z.infer<typeof hermesConfigSchema>;

const hermesSubscriptionsSchema = z.record(z.string(), hermesRouteSchema);
export type HermesSubscriptions = z.infer<typeof hermesSubscriptionsSchema>;

/** Thrown for a file that cannot be read or is not what Hermes writes; names the file and the key. */
export class HermesFileError extends Error {}

function problemOf(file: string, error: z.ZodError): HermesFileError {
  const first = error.issues[0];
  const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return new HermesFileError(`${file}: ${where}${first?.message ?? 'not valid'}`);
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new HermesFileError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code})`);
  }
}

export function readHermesConfig(file: string): HermesConfig {
  let raw: unknown;
  try {
    raw = parseYaml(readText(file)) ?? {};
  } catch (error) {
    if (error instanceof HermesFileError) throw error;
    throw new HermesFileError(`${file}: not YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const result = hermesConfigSchema.safeParse(raw);
  if (!result.success) throw problemOf(file, result.error);
  // The schema only checks (it transforms nothing); the raw object keeps Hermes' key order.
  return raw as HermesConfig;
}

export function readHermesSubscriptions(file: string): HermesSubscriptions {
  let raw: unknown;
  try {
    raw = JSON.parse(readText(file));
  } catch (error) {
    if (error instanceof HermesFileError) throw error;
    throw new HermesFileError(`${file}: not JSON (${(error as Error).message})`);
  }
  const result = hermesSubscriptionsSchema.safeParse(raw);
  if (!result.success) throw problemOf(file, result.error);
  return raw as HermesSubscriptions;
}
