/**
 * The plugin contract: a name equal to the package name, what it provides, the config slices it
 * owns, an options schema, a `setup`.
 */
import type { z } from 'zod';
import type { AgentKeys, ConfigSlices, GatewayConfig, StoreConfig } from './config/schema.js';
import type { ConfigProblem } from './errors.js';
import type { GatewayHooks } from './hooks.js';
import type { Logger } from './logger.js';
import type { Store } from './store.js';
import type { GatewayTracer } from './tracing.js';

/** What `setup` receives besides its options. */
export interface PluginContext {
  hooks: GatewayHooks;
  /** A child logger that names the plugin. */
  log: Logger;
  config: GatewayConfig;
  /** Gateway home directory. */
  home: string;
  /** Whether the gateway is about to serve (false for `config validate` and other commands). */
  serving: boolean;
  /** The journal and subscriptions (absent when a command only validates config). */
  store?: Store;
  /** Live counts of the delivery queue (absent when not serving). */
  queue?: QueueStats;
  /**
   * With `observability.otlp`, the gateway's tracer (its spans redacted by the log's rules), for
   * work outside an attempt that belongs to a delivery's trace (the outbox's sender); absent
   * otherwise. Inside an attempt, `traceStep` makes the spans.
   */
  tracer?: GatewayTracer;
}

/** How much work is waiting and running right now. */
export interface QueueStats {
  readonly queuedCount: number;
  readonly runningCount: number;
}

/** Optional lifecycle a plugin returns from `setup`. */
export interface PluginInstance {
  /** Runs once the gateway starts (credential checks, connections). */
  start?(): Promise<void>;
  /**
   * Runs once the gateway serves: it listens (or, as a worker, runs deliveries). Background work
   * that makes a sender post to the gateway starts here, not in `start`.
   */
  serving?(): void;
  /** Runs as the gateway stops. */
  stop?(): Promise<void>;
}

/** What a plugin adds, by the names config uses for them. */
export interface PluginProvides {
  /** Auth schemes (`authenticate` taps), by the scheme names their verdicts carry. */
  readonly schemes?: readonly string[];
  /** Delivery targets (`deliver.for(name)`), named by a route's `deliver:`. */
  readonly targets?: readonly string[];
  /** Agent runners (`run.for(name)`), named by `agent.runner`. */
  readonly runners?: readonly string[];
  /** Stores, named by `store.kind`. */
  readonly stores?: readonly string[];
}

/** Opens a store of one kind from the `store:` block; errors name the key to fix. */
export type StoreOpener = (
  settings: StoreConfig,
  context: {
    home: string;
    /** The gateway itself, not a one-off command (a store may then work in the background). */
    longRunning: boolean;
  },
) => Promise<Store>;

/** The config slices a plugin owns, by key under `platforms:` (`pager` is `platforms.pager`). */
export type PlatformSlices = Readonly<Record<string, z.ZodType>>;

/** The validated values of a plugin's slices, as `settings()` in its `setup` returns them. */
export type SettingsOf<Slices extends PlatformSlices> = {
  readonly [Key in keyof Slices]: z.output<Slices[Key]>;
};

/**
 * The slices of a plugin named in `dependencies`, as `config` holds them (validated with that
 * plugin's schemas). In a tap, pass the request's config, so a reload applies to the next delivery.
 * `Settings` is the type the dependency exports for them.
 *
 * @example settingsOf<{ forge: ForgeSettings }>('@webhook-gateway/deliver-forge-comment', req.config).forge
 */
export type DependencySettings = <Settings = Readonly<Record<string, unknown>>>(
  plugin: string,
  config: GatewayConfig,
) => Settings;

const PLUGIN = Symbol.for('webhook-gateway.plugin');

export interface PluginDefinition<Options, Slices extends PlatformSlices = PlatformSlices> {
  /** Equals the package name (or the file name of a local plugin). */
  name: string;
  /** What it provides; a name declared here that `setup` does not tap is a start-up error. */
  provides?: PluginProvides;
  /**
   * The config slices it owns under `platforms:`: validated with the rest of the config at start
   * (a bad value names its key path), and part of `webhook-gateway config schema`.
   */
  platforms?: Slices;
  /**
   * Keys it adds to the `agent:` block and to a route's `agent:` (a runner's `model`), validated
   * with the rest of the config; taps read them from the request's `agent`.
   */
  agent?: AgentKeys;
  /**
   * Plugins it needs, by name (as Fastify's plugin `dependencies`): their settings are read with
   * `settingsOf`. A dependency that is not loaded stops the gateway at start, naming both.
   */
  dependencies?: readonly string[];
  /** Other names for its platforms and targets (`telegram` for `messenger_a`), accepted in config. */
  aliases?: Readonly<Record<string, string>>;
  /** The stores it provides, by `store.kind`; opened before any plugin is set up. */
  stores?: Readonly<Record<string, StoreOpener>>;
  /** A pure check of the whole config once it is valid: problems with their key paths. */
  check?(config: GatewayConfig): ConfigProblem[];
  options?: z.ZodType<Options>;
  setup(
    context: PluginContext & {
      /**
       * Its slices as the live config holds them now: call it where they are used (a tap, a
       * check), so a reload applies; the result is a snapshot.
       */
      settings: () => SettingsOf<Slices>;
      settingsOf: DependencySettings;
      /**
       * The whole config as the live config holds it now (core's keys too, such as
       * `platforms.webhook.extra.outbound`), for background work outside a request or an
       * attempt; those read their own `config`. A reload is seen at the next call.
       */
      currentConfig: () => GatewayConfig;
    },
    options: Options,
  ): void | PluginInstance | Promise<void | PluginInstance>;
}

export interface GatewayPlugin<
  Options = unknown,
  Slices extends PlatformSlices = PlatformSlices,
> extends Readonly<PluginDefinition<Options, Slices>> {
  readonly [PLUGIN]: true;
}

/**
 * Declares a plugin.
 *
 * @example
 * export default definePlugin({
 *   name: '@acme/webhook-gateway-deliver-pager',
 *   provides: { targets: ['pager'] },
 *   platforms: { pager: z.object({ url: z.url() }) },
 *   setup({ hooks, settings }) {
 *     hooks.deliver.for('pager').tapPromise('@acme/webhook-gateway-deliver-pager', async (req) => {
 *       await fetch(settings().pager.url, { method: 'POST', body: req.answer });
 *     });
 *   },
 * });
 */
export function definePlugin<
  Options = undefined,
  // No slices: spelled without zod so a plugin's emitted .d.ts does not name zod either.
  Slices extends PlatformSlices = Record<never, never>,
>(definition: PluginDefinition<Options, Slices>): GatewayPlugin<Options, Slices> {
  return Object.freeze({ ...definition, [PLUGIN]: true as const });
}

/**
 * A plugin's slices as `config` holds them (validated with the plugin's schemas when the config
 * was read). Taps read them from the request's config, so a reload applies to the next delivery.
 *
 * @example hooks.deliver.for('pager').tapPromise(name, (req) => page(settingsIn(plugin, req.config).pager));
 */
export function settingsIn<Slices extends PlatformSlices>(
  plugin: Pick<GatewayPlugin<unknown, Slices>, 'platforms'>,
  config: GatewayConfig,
): SettingsOf<Slices> {
  const platforms = config.platforms as Readonly<Record<string, unknown>>;
  return Object.fromEntries(
    Object.keys(plugin.platforms ?? {}).map((key) => [key, platforms[key]]),
  ) as SettingsOf<Slices>;
}

/**
 * Every part of the config the plugins own: slices under `platforms:`, keys of `agent:`, and
 * aliases. Two plugins owning one key (or alias) is an error naming both.
 */
export function configSlicesOf(
  plugins: readonly Pick<GatewayPlugin<unknown>, 'name' | 'platforms' | 'agent' | 'aliases'>[],
): ConfigSlices {
  const platforms: Record<string, z.ZodType> = {};
  const settings: Record<string, z.ZodType> = {};
  const overrides: Record<string, z.ZodType> = {};
  const aliases: Record<string, string> = {};
  const owners = new Map<string, string>();
  const claim = (key: string, plugin: string): void => {
    const owner = owners.get(key);
    if (owner !== undefined && owner !== plugin) {
      throw new Error(`plugins ${owner} and ${plugin} both own ${key}; load only one of them`);
    }
    owners.set(key, plugin);
  };
  for (const plugin of plugins) {
    for (const [key, schema] of Object.entries(plugin.platforms ?? {})) {
      claim(`platforms.${key}`, plugin.name);
      platforms[key] = schema;
    }
    for (const [key, schema] of Object.entries(plugin.agent?.settings ?? {})) {
      claim(`agent.${key}`, plugin.name);
      settings[key] = schema;
    }
    Object.assign(overrides, plugin.agent?.overrides ?? {});
    for (const [alias, name] of Object.entries(plugin.aliases ?? {})) {
      claim(`the alias ${alias}`, plugin.name);
      aliases[alias] = name;
    }
  }
  return { platforms, agent: { settings, overrides }, aliases };
}

/** True for a value made by `definePlugin`. */
export function isPlugin(value: unknown): value is GatewayPlugin<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[PLUGIN] === true
  );
}
