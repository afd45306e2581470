/** Opens the store config names, through the plugin that provides its kind. */
import type { Store, StoreConfig } from '@webhook-gateway/core';
import { openConfiguredStore, type LoadedPlugin } from '@webhook-gateway/core/runtime';

/** `longRunning`: the gateway itself, not a one-off command (SQLite then checkpoints in the background). */
export async function openStore(
  store: StoreConfig,
  context: { home: string; plugins: readonly LoadedPlugin[] },
  options: { longRunning?: boolean } = {},
): Promise<Store> {
  return openConfiguredStore(store, context.plugins, {
    home: context.home,
    longRunning: options.longRunning ?? false,
  });
}
