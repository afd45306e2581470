/** Opens the store `store.kind` names, through the loaded plugin that provides that kind. */
import type { StoreConfig } from './config/schema.js';
import { corePlugin } from './core-plugin.js';
import { StartupError } from './errors.js';
import type { LoadedPlugin } from './plugin-loader.js';
import type { Store } from './store.js';

export async function openConfiguredStore(
  settings: StoreConfig,
  plugins: readonly LoadedPlugin[],
  context: { home: string; longRunning?: boolean },
): Promise<Store> {
  const all = [corePlugin, ...plugins.map((loaded) => loaded.plugin)];
  const open = all.map((plugin) => plugin.stores?.[settings.kind]).find((opener) => opener);
  if (!open) {
    const kinds = all.flatMap((plugin) => Object.keys(plugin.stores ?? {}));
    throw new StartupError(
      `store.kind "${settings.kind}": no loaded plugin provides this store (stores provided: ${kinds.join(', ')}); install its package beside the CLI and list it under plugins:`,
    );
  }
  return open(settings, { home: context.home, longRunning: context.longRunning ?? false });
}
