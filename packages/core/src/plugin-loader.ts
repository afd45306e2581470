/**
 * Resolves and loads plugins named in config, relative to the config file (as Probot and
 * changesets do), telling "not installed" from "failed to load" (as Verdaccio does).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolve as resolveModule } from 'import-meta-resolve';
import type { PluginEntry } from './config/schema.js';
import { PluginError, errorMessage } from './errors.js';
import type { GatewayHooks } from './hooks.js';
import {
  isPlugin,
  settingsIn,
  type GatewayPlugin,
  type PluginContext,
  type PluginInstance,
} from './plugin.js';
import { formatKeyPath } from './config/key-path.js';

/** A plugin ready to set up, with the options config gave it. */
export interface LoadedPlugin {
  plugin: GatewayPlugin<unknown>;
  options: unknown;
}

function isPathSpec(spec: string): boolean {
  return spec.startsWith('./') || spec.startsWith('../') || path.isAbsolute(spec);
}

/** Finds the file URL of a plugin: a path from the config's directory, or a package from there. */
export function resolvePlugin(spec: string, fromDir: string): string {
  if (isPathSpec(spec)) return pathToFileURL(path.resolve(fromDir, spec)).href;
  try {
    return resolveModule(spec, pathToFileURL(path.join(fromDir, 'config.yaml')).href);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
      throw new PluginError(
        spec,
        `is not installed (looked from ${fromDir}); install it there with "npm install ${spec}"`,
      );
    }
    throw new PluginError(spec, `cannot be resolved: ${errorMessage(error)}`, { cause: error });
  }
}

/** Imports one plugin entry of config and checks that it exports a plugin. */
export async function importPlugin(entry: PluginEntry, fromDir: string): Promise<LoadedPlugin> {
  const spec = typeof entry === 'string' ? entry : entry.name;
  const options = typeof entry === 'string' ? undefined : entry.options;
  const url = resolvePlugin(spec, fromDir);
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (
      isPathSpec(spec) &&
      code === 'ERR_MODULE_NOT_FOUND' &&
      String(errorMessage(error)).includes(url.replace('file://', ''))
    ) {
      throw new PluginError(spec, `is not installed: no file at ${path.resolve(fromDir, spec)}`);
    }
    throw new PluginError(spec, `failed to load: ${errorMessage(error)}`, { cause: error });
  }
  if (!isPlugin(module.default)) {
    throw new PluginError(
      spec,
      'failed to load: its default export is not a plugin (use definePlugin)',
    );
  }
  return { plugin: module.default, options };
}

/** Validates a plugin's options and runs its setup; every error names the plugin. */
export async function setupPlugin(
  loaded: LoadedPlugin,
  context: Omit<PluginContext, 'log'> & { log: PluginContext['log'] },
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
  // Each slice as the config holds it, validated and defaulted by the plugin's own schema.
  const settings = settingsIn(plugin, context.config);
  let instance;
  try {
    instance = await plugin.setup(
      { ...context, settings, log: context.log.child({ plugin: plugin.name }) },
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
