/**
 * The config schema of `docs/configuration.md`, with its defaults. Unknown keys are errors, so a typo
 * is reported with its path instead of being silently ignored.
 */
import { z } from 'zod';
import { routeFiltersSchema } from './filter-schema.js';
import { observabilitySchema } from './observability-schema.js';
import { outboundSchema } from './outbound-schema.js';

/** The secret value that turns validation off for a route (loopback binds only). */
export const INSECURE_NO_AUTH = 'INSECURE_NO_AUTH';

/** The canonical name of a target or platform (`telegram` → `messenger_a`), by plugins' aliases. */
export function canonicalName(name: string, aliases: Readonly<Record<string, string>>): string {
  return Object.prototype.hasOwnProperty.call(aliases, name) ? (aliases[name] ?? name) : name;
}

const secretSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** A route's `script`: a path under `<home>/scripts/`, or an argv list whose first item is one. */
const routeScriptSchema = z.union([
  z.string().min(1),
  z.array(z.string().min(1)).min(1, 'list the program, then its arguments'),
]);

/** Hermes' defaults: a 30 s window, 300 s at most from the first delivery of a burst. */
export const DEFAULT_COALESCE_WINDOW_S = 30;
export const DEFAULT_COALESCE_MAX_WAIT_S = 300;

/** A route's `coalesce`, in our spelling (`window_s`) or Hermes' (`window_seconds`). */
const coalesceSchema = z
  .strictObject({
    key: z
      .string({ error: 'set coalesce.key, e.g. "{repository.full_name}#{number}"' })
      .trim()
      .min(1, 'set coalesce.key, e.g. "{repository.full_name}#{number}"'),
    window_s: z.number().positive().optional(),
    max_wait_s: z.number().positive().optional(),
    window_seconds: z.number().positive().optional(),
    max_wait_seconds: z.number().positive().optional(),
  })
  .superRefine((value, ctx) => {
    const window = value.window_s ?? value.window_seconds ?? DEFAULT_COALESCE_WINDOW_S;
    const maxWait = value.max_wait_s ?? value.max_wait_seconds ?? DEFAULT_COALESCE_MAX_WAIT_S;
    if (maxWait < window) {
      ctx.addIssue({
        code: 'custom',
        path: [
          value.max_wait_seconds !== undefined && value.max_wait_s === undefined
            ? 'max_wait_seconds'
            : 'max_wait_s',
        ],
        message: `max_wait_s (${maxWait}) is below window_s (${window}); a delivery would never wait its window`,
      });
    }
  });

/**
 * The review's prepared context (`docs/configuration.md#review`): how the forge plugins
 * build `{_gateway.diff}` and the repository's rules. The top-level block holds the defaults;
 * a route's `review:` overrides them key by key.
 */
const reviewShape = {
  /** Diff from the last reviewed head (`{_gateway.previous_head_sha}`) when there is one. */
  incremental: z.boolean().default(false),
  max_diff_tokens: z.int().positive().default(24_000),
  /** Runner calls a diff over `max_diff_tokens` may be split into, whole files each. */
  chunks: z.int().min(1).max(20).default(1),
  /** Globs of paths never put in the diff. */
  ignore: z.array(z.string().min(1)).default([]),
  /** The repository's rules file, read from the base branch. */
  repo_config: z.string().min(1).default('.webhook-gateway.yaml'),
  guidance_files: z
    .array(z.string().min(1))
    .default(['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md']),
  max_guidance_tokens: z.int().positive().default(4_000),
};

const reviewSchema = z.strictObject(reviewShape);

/** A route's `review:`: any key of the top-level block, none defaulted. */
const routeReviewSchema = z.strictObject({
  incremental: reviewShape.incremental.removeDefault().optional(),
  max_diff_tokens: reviewShape.max_diff_tokens.removeDefault().optional(),
  chunks: reviewShape.chunks.removeDefault().optional(),
  ignore: reviewShape.ignore.removeDefault().optional(),
  repo_config: reviewShape.repo_config.removeDefault().optional(),
  guidance_files: reviewShape.guidance_files.removeDefault().optional(),
  max_guidance_tokens: reviewShape.max_guidance_tokens.removeDefault().optional(),
});

export type ReviewSettings = z.infer<typeof reviewSchema>;

/** The review settings a route runs with: the top-level block with the route's keys on top. */
export function reviewForRoute(
  review: ReviewSettings,
  route: Partial<ReviewSettings> | undefined,
): ReviewSettings {
  if (!route) return review;
  const defined = Object.fromEntries(
    Object.entries(route).filter(([, value]) => value !== undefined),
  ) as Partial<ReviewSettings>;
  return { ...review, ...defined };
}

/**
 * Prompt hygiene (`hygiene.ts`): hidden content out of payload strings before the template, each
 * string capped at `max_field_chars` characters with a "[cut N chars]" marker.
 */
const hygieneShape = {
  enabled: z.boolean().default(true),
  max_field_chars: z.int().positive().default(20_000),
};
const hygieneSchema = z.strictObject(hygieneShape);

/** A route's `hygiene:`: `false` turns it off, `true` on; or any key of the top-level block. */
const routeHygieneSchema = z.union([
  z.boolean(),
  z.strictObject({
    enabled: hygieneShape.enabled.removeDefault().optional(),
    max_field_chars: hygieneShape.max_field_chars.removeDefault().optional(),
  }),
]);

export type HygieneConfig = z.infer<typeof hygieneSchema>;

/** The hygiene a route runs with: the top-level block with the route's keys on top. */
export function hygieneForRoute(
  hygiene: HygieneConfig,
  route: z.infer<typeof routeHygieneSchema> | undefined,
): HygieneConfig {
  if (route === undefined) return hygiene;
  if (typeof route === 'boolean') return { ...hygiene, enabled: route };
  return {
    enabled: route.enabled ?? hygiene.enabled,
    max_field_chars: route.max_field_chars ?? hygiene.max_field_chars,
  };
}

/** The forge roles a command route may ask of a commenter, weakest first. */
const COMMAND_PERMISSIONS = ['write', 'maintain', 'admin'] as const;

/** The runner of notify-only routes: the rendered template is the answer, and no model runs. */
export const NO_RUNNER = 'none';

/**
 * The agent keys core reads itself: which runner runs, how long a run may take, and what becomes
 * of a run a limit stops after it produced something (`partial`: delivered with a notice).
 */
const coreAgentShape = {
  runner: z.string().min(1).default('dry-run'),
  timeout_s: z.number().positive().default(600),
  on_limit: z.enum(['partial', 'fail']).default('partial'),
};

/** A route's overrides of core's agent keys: no defaults, the global block supplies those. */
const coreAgentOverridesShape = {
  runner: coreAgentShape.runner.removeDefault().optional(),
  timeout_s: coreAgentShape.timeout_s.removeDefault().optional(),
  on_limit: coreAgentShape.on_limit.removeDefault().optional(),
};

/**
 * The keys a plugin adds to the `agent:` block (a runner's `model`, `terminal`, …), and what a
 * route's `agent:` may override of them.
 */
export interface AgentKeys {
  /** `agent.<key>`, with its default. */
  readonly settings: Readonly<Record<string, z.ZodType>>;
  /** `routes.<r>.agent.<key>`: without defaults, so only what a route sets wins. */
  readonly overrides: Readonly<Record<string, z.ZodType>>;
}

/** A forge hook's id, or `auto`: found by its URL (`extra.public_url` + `/webhooks/<route>`). */
const hookIdSchema = z.union([z.int().positive(), z.literal('auto')]);

/**
 * The forge hook a route receives from, whose delivery log `reconcile` reads: a repository's or
 * an organization's hook on the forge, a project's hook on the altforge, or the GitHub App's own
 * webhook (`hook: app`, read with the App's JWT; `platforms.forge.app` must be set).
 */
const routeReconcileSchema = z.union(
  [
    z.strictObject({
      repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'expected owner/name'),
      hook_id: hookIdSchema,
    }),
    z.strictObject({
      org: z.string().regex(/^[^/\s]+$/, 'expected an organization name'),
      hook_id: hookIdSchema,
    }),
    z.strictObject({
      project: z.string().regex(/^[^/\s]+(\/[^/\s]+)+$/, 'expected group/name'),
      hook_id: z.int().positive(),
    }),
    z.strictObject({ hook: z.literal('app') }),
  ],
  {
    error:
      'expected { repo: owner/name, hook_id }, { org, hook_id }, { project: group/name, hook_id } or { hook: app }',
  },
);

/** The parts of the config plugins own: slices under `platforms:`, keys of `agent:`, aliases. */
export interface ConfigSlices {
  readonly platforms: Readonly<Record<string, z.ZodType>>;
  readonly agent: AgentKeys;
  /** Other names for platforms and targets (`telegram` → `messenger_a`). */
  readonly aliases: Readonly<Record<string, string>>;
}

const NO_SLICES: ConfigSlices = {
  platforms: {},
  agent: { settings: {}, overrides: {} },
  aliases: {},
};

function routeSchemaOf(slices: ConfigSlices) {
  return z.strictObject({
    secret: secretSchema.optional(),
    /** The auth schemes this route accepts (default: every loaded scheme). */
    schemes: z
      .array(z.string().min(1))
      .min(1, 'list at least one scheme, or leave schemes out')
      .optional(),
    description: z.string().optional(),
    /** `false`: the route answers 403 `Route disabled: <name>` to every request (Hermes' switch). */
    enabled: z.boolean().optional(),
    events: z.array(z.string().min(1)).default([]),
    actions: z.array(z.string().min(1)).default([]),
    /** The map form, or Hermes' spec form (`config/filter-schema.ts`). */
    filters: routeFiltersSchema,
    /** Comment commands (`/review`, `@review-bot`): only comments naming one can run. */
    commands: z
      .array(z.string().regex(/^\S+$/, 'a command is one word without spaces, as "/review"'))
      .optional(),
    /** Whether a command route runs comments a bot (`sender.type: Bot`) wrote. */
    allow_bots: z.boolean().optional(),
    /** Daily limits of the route's agent, per UTC day, counted from the journal. */
    budget: z
      .strictObject({
        tokens_per_day: z.int().positive().optional(),
        runs_per_day: z.int().positive().optional(),
      })
      .optional(),
    /** The role a commenter needs on a command route (default `write`). */
    command_permission: z.enum(COMMAND_PERMISSIONS).optional(),
    prompt: z.string().optional(),
    /** Hermes' name for `agent: { runner: none }`: deliver the rendered template, run no model. */
    deliver_only: z.boolean().optional(),
    skills: z.array(z.string().min(1)).default([]),
    deliver: z
      .string()
      .min(1)
      .default('log')
      .transform((name) => canonicalName(name, slices.aliases)),
    deliver_extra: z.record(z.string(), z.unknown()).default({}),
    agent: z.strictObject({ ...coreAgentOverridesShape, ...slices.agent.overrides }).optional(),
    concurrency: z.int().positive().optional(),
    max_attempts: z.int().positive().optional(),
    reconcile: routeReconcileSchema.optional(),
    /**
     * A newer delivery for the same pull or merge request ends this route's earlier ones that are
     * still queued and not started (status `superseded`). Default false.
     */
    supersede: z.boolean().optional(),
    /**
     * A program under `<home>/scripts/` run in the attempt before the render, payload on stdin:
     * Hermes' path form (`.sh`/`.bash` with bash, `.py` with python3, else executable) or an
     * argv list. See route-script.ts for what it may answer.
     */
    script: routeScriptSchema.optional(),
    /** How long the script may run (default 30); `script_timeout_seconds` is Hermes' name. */
    script_timeout_s: z.number().positive().optional(),
    script_timeout_seconds: z.number().positive().optional(),
    /**
     * Bursts per key (Hermes' `coalesce`): a delivery waits `window_s`; a newer one with the same
     * rendered key supersedes it and waits again, none longer than `max_wait_s` from the first.
     */
    coalesce: coalesceSchema.optional(),
    /** The review context's settings for this route, over the top-level `review:` block. */
    review: routeReviewSchema.optional(),
    /** Prompt hygiene for this route, over the top-level `hygiene:` block (`false`: off). */
    hygiene: routeHygieneSchema.optional(),
  });
}

/** A route with core's keys alone (a dynamic subscription's route, tests). */
export const routeSchema = routeSchemaOf(NO_SLICES);

const adminSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.int().min(0).max(65_535).default(8645),
  token: z.string().min(1).optional(),
  /**
   * Where people reach the dashboard (`https://gateway.example.com`): a review's commit status
   * links to its delivery's page there. Unset: no link.
   */
  public_url: z.url({ protocol: /^https?$/ }).optional(),
});

function webhookExtraSchemaOf(route: ReturnType<typeof routeSchemaOf>) {
  return z.strictObject({
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
    /** While draining, answer webhooks 503 with `Retry-After` instead of journaling them. */
    drain_refuse: z.boolean().default(false),
    admin: adminSchema.optional(),
    /** Where the forge reaches the gateway (`https://hooks.example.com`); hooks point at `<it>/webhooks/<route>`. */
    public_url: z.url().optional(),
    /** Seconds between reconcile passes; 600 when unset and any route reconciles. */
    reconcile_interval_s: z.int().positive().optional(),
    /** Subscribers of the deliveries' lifecycle events, signed as Standard Webhooks. */
    outbound: outboundSchema,
    routes: z
      .record(z.string().regex(/^[^/\s]+$/, 'route names cannot contain "/" or spaces'), route)
      .default({}),
  });
}

function platformsSchemaOf(route: ReturnType<typeof routeSchemaOf>) {
  return z.strictObject({
    webhook: z
      .strictObject({
        enabled: z.boolean().default(true),
        extra: webhookExtraSchemaOf(route).prefault({}),
      })
      .prefault({}),
  });
}

/** Renames alias keys (`telegram:`) to their canonical names before validation. */
function canonicalPlatformKeys(
  value: unknown,
  ctx: z.RefinementCtx,
  aliases: Readonly<Record<string, string>>,
): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const canonical = canonicalName(key, aliases);
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

function configSchemaOf(slices: ConfigSlices) {
  return z.strictObject({
    plugins: pluginEntriesSchema,
    store: storeSchema.prefault({}),
    agent: z.strictObject({ ...coreAgentShape, ...slices.agent.settings }).prefault({}),
    review: reviewSchema.prefault({}),
    hygiene: hygieneSchema.prefault({}),
    observability: observabilitySchema.prefault({}),
    platforms: z
      .preprocess(
        (value, ctx) => canonicalPlatformKeys(value, ctx, slices.aliases),
        platformsSchemaOf(routeSchemaOf(slices)).extend(slices.platforms),
      )
      .prefault({}),
  });
}

/** Core's own config: the keys every gateway has. */
export const configSchema = configSchemaWith(NO_SLICES);

/**
 * The config schema with the parts plugins own: each key of `slices.platforms` is a key under
 * `platforms:` (`pager` validates `platforms.pager`), and `slices.agent` adds keys to `agent:`
 * and to each route's `agent:`. Its output is core's config plus those parts, which their
 * plugins read (`settingsIn`, `setup`'s `settings`).
 */
export function configSchemaWith(slices: ConfigSlices = NO_SLICES): z.ZodType<GatewayConfig> {
  return configSchemaOf(slices) as unknown as z.ZodType<GatewayConfig>;
}

/** The `agent:` block: core's keys, and those the loaded plugins add (read through their types). */
export interface AgentConfig {
  runner: string;
  timeout_s: number;
  [key: string]: unknown;
}
/** A route's `agent:` overrides: any key of the block, none defaulted. */
export type AgentOverrides = Partial<AgentConfig>;
export type RouteConfig = Omit<z.infer<typeof routeSchema>, 'agent'> & { agent?: AgentOverrides };
export type WebhookSettings = Omit<z.infer<ReturnType<typeof webhookExtraSchemaOf>>, 'routes'> & {
  routes: Record<string, RouteConfig>;
};
type CoreConfig = z.infer<ReturnType<typeof configSchemaOf>>;
/** The whole validated config, defaults filled in. */
export type GatewayConfig = Omit<CoreConfig, 'agent' | 'platforms'> & {
  agent: AgentConfig;
  platforms: { webhook: { enabled: boolean; extra: WebhookSettings } };
};
export type PluginEntry = z.infer<typeof pluginEntrySchema>;
export type StoreConfig = z.infer<typeof storeSchema>;
export type RouteReconcileConfig = z.infer<typeof routeReconcileSchema>;

/** The agent settings a route runs with: the global block with the route's overrides on top. */
export function agentForRoute(
  agent: AgentConfig,
  overrides: AgentOverrides | undefined,
): AgentConfig {
  if (!overrides) return agent;
  const defined = Object.fromEntries(
    Object.entries(overrides).filter(([, value]) => value !== undefined),
  ) as Partial<AgentConfig>;
  const merged: AgentConfig = { ...agent, ...defined };
  // A nested block (`terminal:`) is merged key by key, so a route sets one key of it.
  for (const [key, value] of Object.entries(defined)) {
    const base = agent[key];
    if (isPlainObject(base) && isPlainObject(value)) merged[key] = { ...base, ...value };
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The agent a route runs with: `agentForRoute`, with `deliver_only: true` meaning runner `none`. */
export function routeAgent(
  agent: AgentConfig,
  route: Pick<RouteConfig, 'agent' | 'deliver_only'>,
): AgentConfig {
  return agentForRoute(
    agent,
    route.deliver_only ? { ...route.agent, runner: NO_RUNNER } : route.agent,
  );
}

/** The JSON Schema of the config file with the plugins' parts, for editors and `config schema`. */
export function configJsonSchema(slices: ConfigSlices = NO_SLICES): Record<string, unknown> {
  return z.toJSONSchema(configSchemaWith(slices), { io: 'input', unrepresentable: 'any' });
}
