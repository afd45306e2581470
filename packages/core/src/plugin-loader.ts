/**
 * Loads the plugins named in config (found by plugin-resolve.ts), telling "not installed" from
 * "failed to load" (as Verdaccio does), and sets each up.
 */
import type { GatewayConfig, PluginEntry } from './config/schema.js';
import { PluginError, errorMessage } from './errors.js';
import type { GatewayHooks } from './hooks.js';
import {
  isPlugin,
  settingsIn,
  type DependencySettings,
  type GatewayPlugin,
  type PluginContext,
  type PluginInstance,
} from './plugin.js';
import { formatKeyPath } from './config/key-path.js';
import { isPathSpec, resolvePlugin, type PluginSearch } from './plugin-resolve.js';

/** A plugin ready to set up, with the options config gave it. */
export interface LoadedPlugin {
  plugin: GatewayPlugin<unknown>;
  options: unknown;
}

/**
 * Imports one plugin entry of config and checks that it exports a plugin. `search` is the config
 * file's directory, or that and the places beyond it (beside the running CLI).
 */
export async function importPlugin(
  entry: PluginEntry,
  search: string | PluginSearch,
): Promise<LoadedPlugin> {
  const spec = typeof entry === 'string' ? entry : entry.name;
  const options = typeof entry === 'string' ? undefined : entry.options;
  const url = resolvePlugin(spec, typeof search === 'string' ? { configDir: search } : search);
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (error) {
    // The file was found, so whatever import() says (a package it imports is missing, a syntax
    // error) is the plugin's own problem: Node's message is the cause, never "not installed".
    throw new PluginError(
      spec,
      `failed to load: ${errorMessage(error)}${esmHint(spec, url, error)}`,
      {
        cause: error,
      },
    );
  }
  if (!isPlugin(module.default)) {
    throw new PluginError(
      spec,
      'failed to load: its default export is not a plugin (use definePlugin)',
    );
  }
  return { plugin: module.default, options };
}

/** A `.js` plugin that Node read as CommonJS (its package.json says so): say how to make it ESM. */
function esmHint(spec: string, url: string, error: unknown): string {
  const readAsCommonJs =
    error instanceof SyntaxError &&
    /import statement|unexpected token 'export'/i.test(error.message);
  return isPathSpec(spec) && url.endsWith('.js') && readAsCommonJs
    ? ' (a plugin is an ES module: name the file .mjs, or set "type": "module" in its package.json)'
    : '';
}

/**
 * Validates a plugin's options and runs its setup; every error names the plugin. `loadedPlugins`
 * are the ones its `dependencies` are found among.
 */
export async function setupPlugin(
  loaded: LoadedPlugin,
  context: Omit<PluginContext, 'log'> & { log: PluginContext['log'] },
  loadedPlugins: readonly GatewayPlugin<unknown>[] = [],
  current: () => GatewayConfig = () => context.config,
): Promise<PluginInstance | undefined> {
  const { plugin } = loaded;
  let options: unknown = loaded.options;
  if (plugin.options) {
    const result = plugin.options.safeParse(loaded.options ?? {});
    if (!result.success) {
      const details = result.error.issues
        .map((issue) => `${formatKeyPath(['options', ...issue.path])}: ${issue.message}`)
        .join('; ');
      throw new PluginError(plugin.name, `invalid options: ${details}`);
    }
    options = result.data;
  }
  // Each slice as the live config holds it, validated and defaulted by the plugin's own schema.
  const settings = () => settingsIn(plugin, current());
  const settingsOf: DependencySettings = <Settings>(name: string, config: GatewayConfig) => {
    if (!(plugin.dependencies ?? []).includes(name)) {
      throw new PluginError(
        plugin.name,
        `reads the settings of ${name}, which its dependencies do not name`,
      );
    }
    return settingsIn(dependencyOf(plugin, name, loadedPlugins), config) as Settings;
  };
  let instance;
  try {
    instance = await plugin.setup(
      {
        ...context,
        settings,
        settingsOf,
        currentConfig: current,
        log: context.log.child({ plugin: plugin.name }),
      },
      options,
    );
  } catch (error) {
    if (error instanceof PluginError || (error as Error).name === 'ConfigError') throw error;
    throw new PluginError(plugin.name, `setup failed: ${errorMessage(error)}`, { cause: error });
  }
  const missing = undeliveredProvides(plugin, context.hooks);
  if (missing.length > 0) {
    throw new PluginError(
      plugin.name,
      `declares ${missing.join(', ')} in provides, but its setup did not tap ${missing.length > 1 ? 'them' : 'it'}`,
    );
  }
  return instance ?? undefined;
}

/** The loaded plugin `name` that `plugin` depends on; a missing one is an error naming both. */
export function dependencyOf(
  plugin: Pick<GatewayPlugin<unknown>, 'name'>,
  name: string,
  loadedPlugins: readonly GatewayPlugin<unknown>[],
): GatewayPlugin<unknown> {
  const dependency = loadedPlugins.find((loaded) => loaded.name === name);
  if (!dependency) {
    throw new PluginError(
      plugin.name,
      `depends on ${name}, which is not loaded: install it beside the CLI and list it under plugins:`,
    );
  }
  return dependency;
}

/** What a plugin declares it provides but did not tap: a plugin author's mistake, found at start. */
function undeliveredProvides(plugin: GatewayPlugin<unknown>, hooks: GatewayHooks): string[] {
  const { provides } = plugin;
  if (!provides) return [];
  const missing = [
    ...(provides.schemes ?? [])
      .filter((name) => !hooks.authenticate.get(name)?.isUsed())
      .map((name) => `scheme "${name}"`),
    ...(provides.targets ?? [])
      .filter((name) => !hooks.deliver.get(name)?.isUsed())
      .map((name) => `target "${name}"`),
    ...(provides.runners ?? [])
      .filter((name) => !hooks.run.get(name)?.isUsed())
      .map((name) => `runner "${name}"`),
  ];
  missing.push(
    ...(provides.stores ?? [])
      .filter((name) => plugin.stores?.[name] === undefined)
      .map((name) => `store "${name}"`),
  );
  return missing;
}
