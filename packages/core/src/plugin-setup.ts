/** Sets up core's own taps and then every loaded plugin, in order, on the given hooks. */
import { corePlugin } from './core-plugin.js';
import type { PluginContext, PluginInstance } from './plugin.js';
import { dependencyOf, setupPlugin, type LoadedPlugin } from './plugin-loader.js';

/**
 * Resolves with the lifecycles the plugins returned, in setup order. A plugin whose dependency is
 * not loaded stops it before any setup runs.
 */
export async function setUpPlugins(
  plugins: readonly LoadedPlugin[],
  context: PluginContext,
): Promise<PluginInstance[]> {
  const all = [{ plugin: corePlugin, options: undefined }, ...plugins];
  const loadedPlugins = all.map((loaded) => loaded.plugin);
  for (const plugin of loadedPlugins) {
    for (const name of plugin.dependencies ?? []) dependencyOf(plugin, name, loadedPlugins);
  }
  const instances: PluginInstance[] = [];
  for (const loaded of all) {
    const instance = await setupPlugin(loaded, context, loadedPlugins);
    if (instance) instances.push(instance);
  }
  return instances;
}
