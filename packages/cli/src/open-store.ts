/** Opens the store config names, through the plugin that provides its kind. */
import type { Store, StoreConfig } from '@webhook-gateway/core';
import {
  PluginNotInstalledError,
  importPlugin,
  packageNameOf,
  openConfiguredStore,
  type LoadedPlugin,
  type PluginSearch,
} from '@webhook-gateway/core/runtime';
import { StartupError } from '@webhook-gateway/core';
import { pluginSearch } from './cli-install.js';
import { pinCoreToCli } from './core-pin.js';

/**
 * Stores that are separate installs (heavy, and most users never need them), by `store.kind`:
 * the module of each one's plugin. Loaded only when config names the kind and no listed plugin
 * provides it, from the same places as any plugin.
 */
const SEPARATE_STORES: Readonly<Partial<Record<StoreConfig['kind'], string>>> = {
  redis: '@webhook-gateway/store-redis/plugin',
};

/** The loaded plugins, plus the separately installed store `store.kind` names if none provides it. */
export async function withStorePlugin(
  store: StoreConfig,
  context: { dir: string; plugins: readonly LoadedPlugin[] },
  search: PluginSearch = pluginSearch(context.dir),
): Promise<readonly LoadedPlugin[]> {
  const spec = SEPARATE_STORES[store.kind];
  const provided = context.plugins.some((loaded) => loaded.plugin.stores?.[store.kind]);
  if (spec === undefined || provided) return context.plugins;
  try {
    return [...context.plugins, await importPlugin(spec, search)];
  } catch (error) {
    if (error instanceof PluginNotInstalledError) {
      throw new StartupError(
        `store.kind "${store.kind}" needs the package ${packageNameOf(spec)}, which is not installed (looked up from ${error.looked}); install it with: ${error.install}`,
      );
    }
    throw error;
  }
}

/** `longRunning`: the gateway itself, not a one-off command (SQLite then checkpoints in the background). */
export async function openStore(
  store: StoreConfig,
  context: { home: string; dir: string; plugins: readonly LoadedPlugin[] },
  options: { longRunning?: boolean } = {},
): Promise<Store> {
  if (SEPARATE_STORES[store.kind] !== undefined) pinCoreToCli();
  return openConfiguredStore(store, await withStorePlugin(store, context), {
    home: context.home,
    longRunning: options.longRunning ?? false,
  });
}
