/** The plugin contract: a name equal to the package name, an options schema, a `setup`. */
import type { z } from 'zod';
import type { GatewayConfig } from './config/schema.js';
import type { GatewayHooks } from './hooks.js';
import type { Logger } from './logger.js';
import type { Store } from './store.js';

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
  /** Runs as the gateway stops. */
  stop?(): Promise<void>;
}

const PLUGIN = Symbol.for('webhook-gateway.plugin');

export interface GatewayPlugin<Options = unknown> {
  readonly [PLUGIN]: true;
  /** Equals the package name (or the file name of a local plugin). */
  readonly name: string;
  readonly options?: z.ZodType<Options>;
  setup(
    context: PluginContext,
    options: Options,
  ): void | PluginInstance | Promise<void | PluginInstance>;
}

export interface PluginDefinition<Options> {
  name: string;
  options?: z.ZodType<Options>;
  setup(
    context: PluginContext,
    options: Options,
  ): void | PluginInstance | Promise<void | PluginInstance>;
}

/**
 * Declares a plugin.
 *
 * @example
 * export default definePlugin({
 *   name: '@acme/webhook-gateway-deliver-pager',
 *   options: z.object({ url: z.url() }),
 *   setup({ hooks }, options) {
 *     hooks.deliver.for('pager').tapPromise('@acme/webhook-gateway-deliver-pager', async (req) => {
 *       await fetch(options.url, { method: 'POST', body: req.answer });
 *     });
 *   },
 * });
 */
export function definePlugin<Options = undefined>(
  definition: PluginDefinition<Options>,
): GatewayPlugin<Options> {
  return Object.freeze({ ...definition, [PLUGIN]: true as const });
}

/** True for a value made by `definePlugin`. */
export function isPlugin(value: unknown): value is GatewayPlugin<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[PLUGIN] === true
  );
}
