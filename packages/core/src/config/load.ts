/** Finds, reads, expands and validates `<home>/config.yaml` (or `--config FILE`). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import { parse as parseYaml } from 'yaml';
import { ConfigError, type ConfigProblem } from '../errors.js';
import { formatKeyPath, problemsFromZod } from './key-path.js';
import { expandEnv, type MissingEnv } from './env.js';
import type { GatewayPlugin } from '../plugin.js';
import { configSlicesOf } from '../plugin.js';
import type { LoadedPlugin } from '../plugin-loader.js';
import {
  configSchemaWith,
  pluginEntriesSchema,
  type GatewayConfig,
  type PluginEntry,
} from './schema.js';

/** Where the gateway keeps its state: `--home`, else `WEBHOOK_GATEWAY_HOME`, else `~/.webhook-gateway`. */
export function resolveHome(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const chosen = flag ?? env.WEBHOOK_GATEWAY_HOME ?? path.join(os.homedir(), '.webhook-gateway');
  return path.resolve(chosen);
}

/** The config file a run uses: `--config FILE`, else `<home>/config.yaml`. */
export function resolveConfigPath(home: string, flag?: string): string {
  return flag ? path.resolve(flag) : path.join(home, 'config.yaml');
}

export interface LoadedConfig {
  config: GatewayConfig;
  /** Absolute path of the file read, or undefined when none exists (embedded defaults). */
  path: string | undefined;
  /** Directory plugins and relative paths resolve from. */
  dir: string;
  /** The plugins the config was validated with (their slices of `platforms:`). */
  plugins: LoadedPlugin[];
}

/** Loads the plugins a config lists (the CLI adds its built-ins); their slices are then validated. */
export type PluginLoader = (entries: PluginEntry[], fromDir: string) => Promise<LoadedPlugin[]>;

/**
 * Validates an already parsed config object (env references expanded first), with the slices of
 * `platforms:` that `plugins` own.
 */
export function parseConfig(
  raw: unknown,
  env: NodeJS.ProcessEnv = process.env,
  plugins: readonly Pick<GatewayPlugin<unknown>, 'name' | 'platforms' | 'agent' | 'aliases'>[] = [],
): GatewayConfig {
  const missing: MissingEnv[] = [];
  const expanded = expandEnv(raw ?? {}, env, missing);
  const problems: ConfigProblem[] = missing.map((m) => ({
    path: formatKeyPath(m.path),
    message: `environment variable ${m.name} is not set`,
  }));
  let slices;
  try {
    slices = configSlicesOf(plugins);
  } catch (error) {
    throw new ConfigError([...problems, { path: 'plugins', message: (error as Error).message }]);
  }
  const result = configSchemaWith(slices).safeParse(expanded);
  if (!result.success) problems.push(...problemsFromZod(result.error));
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return result.data;
}

/** The `plugins:` list of a raw config, or undefined when it is not valid (the full parse says why). */
function pluginEntriesOf(raw: unknown, env: NodeJS.ProcessEnv): PluginEntry[] | undefined {
  const listed =
    raw !== null && typeof raw === 'object' ? (raw as { plugins?: unknown }).plugins : [];
  const result = pluginEntriesSchema.safeParse(expandEnv(listed ?? [], env, []));
  return result.success ? result.data : undefined;
}

/** Loads the listed plugins, then validates the whole config with their slices. */
async function parseWithPlugins(
  raw: unknown,
  dir: string,
  env: NodeJS.ProcessEnv,
  loadPlugins: PluginLoader | undefined,
): Promise<{ config: GatewayConfig; plugins: LoadedPlugin[] }> {
  const entries = pluginEntriesOf(raw, env);
  if (!loadPlugins || !entries) return { config: parseConfig(raw, env), plugins: [] };
  const plugins = await loadPlugins(entries, dir);
  const config = parseConfig(
    raw,
    env,
    plugins.map((loaded) => loaded.plugin),
  );
  return { config, plugins };
}

const explorer = cosmiconfig('webhook-gateway', {
  loaders: {
    '.yaml': (_filepath: string, content: string): unknown => parseYaml(content),
    '.yml': (_filepath: string, content: string): unknown => parseYaml(content),
  },
  cache: false,
});

/**
 * Loads the config file. A missing `<home>/config.yaml` means the embedded defaults; a missing
 * `--config FILE` is an error.
 */
export async function loadConfig(options: {
  home: string;
  configFile?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Loads the plugins the config lists; without it, only core's own keys are known. */
  loadPlugins?: PluginLoader;
}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const file = resolveConfigPath(options.home, options.configFile);
  if (!fs.existsSync(file)) {
    if (options.configFile) {
      throw new ConfigError([{ path: file, message: 'config file not found' }]);
    }
    const parsed = await parseWithPlugins({}, options.home, env, options.loadPlugins);
    return { ...parsed, path: undefined, dir: options.home };
  }
  let raw: unknown;
  try {
    const result = await explorer.load(file);
    raw = result?.config;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError([{ path: file, message: `cannot be read: ${message}` }]);
  }
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new ConfigError([{ path: '(root)', message: 'the config file must hold a mapping' }]);
  }
  const dir = path.dirname(file);
  return { ...(await parseWithPlugins(raw, dir, env, options.loadPlugins)), path: file, dir };
}
