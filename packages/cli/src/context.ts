/** What most commands need: the home, the plugins, and the config validated with their slices. */
import fs from 'node:fs';
import { loadConfig, resolveHome, type LoadedConfig } from '@webhook-gateway/core/runtime';
import { loadPlugins } from './builtin-plugins.js';
import type { HomeOptions } from './home-options.js';

export interface CommandContext extends LoadedConfig {
  home: string;
}

export async function loadContext(options: HomeOptions): Promise<CommandContext> {
  const home = resolveHome(options.home);
  const loaded = await loadConfig({ home, configFile: options.config, loadPlugins });
  fs.mkdirSync(home, { recursive: true });
  return { ...loaded, home };
}
