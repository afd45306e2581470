/**
 * The config schema of DESIGN §5, with the spec's defaults. Unknown keys are errors, so a typo
 * is reported with its path instead of being silently ignored.
 */
import { z } from 'zod';

/** The secret value that turns validation off for a route (loopback binds only). */
export const INSECURE_NO_AUTH = 'INSECURE_NO_AUTH';

/** Real service names accepted for the canonical platform and target names. */
export const PLATFORM_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  telegram: 'messenger_a',
  discord: 'messenger_b',
  slack: 'messenger_c',
  signal: 'messenger_d',
});

/** The canonical name of a target or platform (`telegram` → `messenger_a`). */
export function canonicalTargetName(name: string): string {
  return PLATFORM_ALIASES[name] ?? name;
}

const secretSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

const scalarSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const terminalFields = {
  enabled: z.boolean(),
  backend: z.enum(['local', 'docker', 'ssh']),
  container: z.string().min(1),
  image: z.string().min(1),
  host: z.string().min(1),
  timeout_s: z.number().positive(),
  max_output_bytes: z.int().positive(),
  env_allowlist: z.array(z.string()),
};

const terminalSchema = z.strictObject({
  enabled: terminalFields.enabled.default(true),
  backend: terminalFields.backend.default('local'),
  container: terminalFields.container.optional(),
  image: terminalFields.image.optional(),
  host: terminalFields.host.optional(),
  timeout_s: terminalFields.timeout_s.default(120),
  max_output_bytes: terminalFields.max_output_bytes.default(16_384),
  env_allowlist: terminalFields.env_allowlist.optional(),
});

/** A route's terminal overrides: no defaults, so only what the route sets wins. */
const terminalOverridesSchema = z.strictObject(terminalFields).partial();

/** Every key an agent block may hold; a route's `agent:` overrides any of them. */
const agentShape = {
  runner: z.string().min(1).default('dry-run'),
  command: z.array(z.string()).min(1).optional(),
  base_url: z.url().optional(),
  model: z.string().min(1).optional(),
  api_key_env: z.string().min(1).optional(),
  max_turns: z.int().positive().default(20),
  timeout_s: z.number().positive().default(600),
  temperature: z.number().min(0).max(2).optional(),
  system_prompt: z.string().optional(),
  terminal: terminalSchema.prefault({}),
  skills_dirs: z.array(z.string()).default([]),
};

export const agentSchema = z.strictObject(agentShape);

/** A route's agent overrides: the same keys, none defaulted (the global block supplies those). */
export const agentOverridesSchema = z.strictObject({
  runner: agentShape.runner.removeDefault().optional(),
  command: agentShape.command,
  base_url: agentShape.base_url,
  model: agentShape.model,
  api_key_env: agentShape.api_key_env,
  max_turns: agentShape.max_turns.removeDefault().optional(),
  timeout_s: agentShape.timeout_s.removeDefault().optional(),
  temperature: agentShape.temperature,
  system_prompt: agentShape.system_prompt,
  terminal: terminalOverridesSchema.optional(),
  skills_dirs: agentShape.skills_dirs.removeDefault().optional(),
});

export const routeSchema = z.strictObject({
  secret: secretSchema.optional(),
  description: z.string().optional(),
  events: z.array(z.string().min(1)).default([]),
  actions: z.array(z.string().min(1)).default([]),
  filters: z.record(z.string().min(1), z.union([scalarSchema, z.array(scalarSchema)])).default({}),
  prompt: z.string().optional(),
  skills: z.array(z.string().min(1)).default([]),
  deliver: z.string().min(1).default('log').transform(canonicalTargetName),
  deliver_extra: z.record(z.string(), z.unknown()).default({}),
  agent: agentOverridesSchema.optional(),
  concurrency: z.int().positive().optional(),
  max_attempts: z.int().positive().optional(),
});

const adminSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.int().min(0).max(65_535).default(8645),
  token: z.string().min(1).optional(),
});

export const webhookExtraSchema = z.strictObject({
  host: z.string().min(1).default('0.0.0.0'),
  port: z.int().min(0).max(65_535).default(8644),
  secret: secretSchema.optional(),
  rate_limit: z.int().positive().default(30),
  max_body_bytes: z.int().positive().default(1_048_576),
  concurrency: z.int().positive().default(4),
  max_attempts: z.int().positive().default(5),
  retry_backoff_ms: z.int().positive().default(1000),
  retention_days: z.number().positive().default(7),
  dedupe_window_s: z.int().positive().default(3600),
  request_timeout_s: z.number().positive().default(30),
  shutdown_timeout_s: z.number().min(0).default(30),
  admin: adminSchema.optional(),
  routes: z
    .record(z.string().regex(/^[^/\s]+$/, 'route names cannot contain "/" or spaces'), routeSchema)
    .default({}),
});

export const platformsSchema = z.strictObject({
  webhook: z
    .strictObject({
      enabled: z.boolean().default(true),
      extra: webhookExtraSchema.prefault({}),
    })
    .prefault({}),
});

/** Renames alias keys (`telegram:`) to their canonical names before validation. */
function canonicalPlatformKeys(value: unknown, ctx: z.RefinementCtx): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const canonical = canonicalTargetName(key);
    if (canonical in out) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `"${key}" and "${canonical}" are the same platform; keep one of them`,
      });
    }
    out[canonical] = inner;
  }
  return out;
}

const pluginEntrySchema = z.union([
  z.string().min(1),
  z.strictObject({ name: z.string().min(1), options: z.unknown().optional() }),
]);

export const storeSchema = z.strictObject({
  // sqlite, redis and memory come with the gateway (redis as a separate install); a plugin may
  // provide another kind, so any name is accepted here and checked against the loaded plugins at start.
  kind: z
    .string()
    .regex(/^[a-z][a-z0-9_-]*$/, 'a store kind: sqlite, redis, memory, or one a plugin provides')
    .default('sqlite'),
  path: z.string().min(1).optional(),
  url: z.string().min(1).optional(),
  fsync: z.boolean().default(false),
});

/** The `plugins:` list alone, read before the rest (the plugins own parts of the schema). */
export const pluginEntriesSchema = z.array(pluginEntrySchema).default([]);

function configSchemaOf<Platforms extends z.ZodType>(platforms: Platforms) {
  return z.strictObject({
    plugins: pluginEntriesSchema,
    store: storeSchema.prefault({}),
    agent: agentSchema.prefault({}),
    platforms: z
      .preprocess((value, ctx) => canonicalPlatformKeys(value, ctx), platforms)
      .prefault({}),
  });
}

/** Core's own config: the keys every gateway has. */
export const configSchema = configSchemaOf(platformsSchema);

/**
 * The config schema with the slices plugins own: each key of `platformSlices` is a key under
 * `platforms:` (`pager` validates `platforms.pager`). Its output is core's config plus those
 * slices, which their plugins read (`setup`'s `settings`).
 */
export function configSchemaWith(
  platformSlices: Readonly<Record<string, z.ZodType>> = {},
): z.ZodType<GatewayConfig> {
  return configSchemaOf(
    platformsSchema.extend(platformSlices),
  ) as unknown as z.ZodType<GatewayConfig>;
}

/** The whole validated config, defaults filled in. */
export type GatewayConfig = z.infer<typeof configSchema>;
export type RouteConfig = z.infer<typeof routeSchema>;
export type AgentConfig = z.infer<typeof agentSchema>;
export type AgentOverrides = z.infer<typeof agentOverridesSchema>;
export type WebhookSettings = z.infer<typeof webhookExtraSchema>;
export type PluginEntry = z.infer<typeof pluginEntrySchema>;
export type StoreConfig = z.infer<typeof storeSchema>;

/** The agent settings a route runs with: the global block with the route's overrides on top. */
export function agentForRoute(
  agent: AgentConfig,
  overrides: AgentOverrides | undefined,
): AgentConfig {
  if (!overrides) return agent;
  const defined = Object.fromEntries(
    Object.entries(overrides).filter(([, value]) => value !== undefined),
  ) as Partial<AgentConfig>;
  return {
    ...agent,
    ...defined,
    terminal: { ...agent.terminal, ...(overrides.terminal ?? {}) },
  };
}

/** The JSON Schema of the config file with the plugins' slices, for editors and `config schema`. */
export function configJsonSchema(
  platformSlices: Readonly<Record<string, z.ZodType>> = {},
): Record<string, unknown> {
  return z.toJSONSchema(configSchemaWith(platformSlices), { io: 'input', unrepresentable: 'any' });
}
