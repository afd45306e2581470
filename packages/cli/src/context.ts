/** What most commands need: the home, the validated config, and a way to open the store. */
import fs from 'node:fs';
import { loadConfig, resolveHome, type LoadedConfig } from '@webhook-gateway/core/runtime';
import type { HomeOptions } from './home-options.js';

export interface CommandContext extends LoadedConfig {
  home: string;
}

export async function loadContext(options: HomeOptions): Promise<CommandContext> {
  const home = resolveHome(options.home);
  const loaded = await loadConfig({ home, configFile: options.config });
  fs.mkdirSync(home, { recursive: true });
  return { ...loaded, home };
}
