/** Sets up core's own taps and then every loaded plugin, in order, on the given hooks. */
import { corePlugin } from './core-plugin.js';
import type { PluginContext, PluginInstance } from './plugin.js';
import { setupPlugin, type LoadedPlugin } from './plugin-loader.js';

/** Resolves with the lifecycles the plugins returned, in setup order. */
export async function setUpPlugins(
  plugins: readonly LoadedPlugin[],
  context: PluginContext,
): Promise<PluginInstance[]> {
  const instances: PluginInstance[] = [];
  for (const loaded of [{ plugin: corePlugin, options: undefined }, ...plugins]) {
    const instance = await setupPlugin(loaded, context);
    if (instance) instances.push(instance);
  }
  return instances;
}
