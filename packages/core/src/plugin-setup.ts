/** Sets up core's own taps and then every loaded plugin, in order, on the given hooks. */
import type { GatewayConfig } from './config/schema.js';
import { corePlugin } from './core-plugin.js';
import type { PluginContext, PluginInstance } from './plugin.js';
import { dependencyOf, setupPlugin, type LoadedPlugin } from './plugin-loader.js';

/**
 * Resolves with the lifecycles the plugins returned, in setup order. A plugin whose dependency is
 * not loaded stops it before any setup runs. `current` gives the live config (the gateway's, which
 * a reload replaces) that each plugin's `settings()` reads; by default, `context.config`.
 */
export async function setUpPlugins(
  plugins: readonly LoadedPlugin[],
  context: PluginContext,
  current: () => GatewayConfig = () => context.config,
): Promise<PluginInstance[]> {
  const all = [{ plugin: corePlugin, options: undefined }, ...plugins];
  const loadedPlugins = all.map((loaded) => loaded.plugin);
  for (const plugin of loadedPlugins) {
    for (const name of plugin.dependencies ?? []) dependencyOf(plugin, name, loadedPlugins);
  }
  const instances: PluginInstance[] = [];
  for (const loaded of all) {
    const instance = await setupPlugin(loaded, context, loadedPlugins, current);
    if (instance) instances.push(instance);
  }
  return instances;
}
