/** Reads the config file for a reload: unlike a start, a missing file is an error, not the defaults. */
import fs from 'node:fs';
import { ConfigError, type GatewayConfig } from '@webhook-gateway/core';
import { loadConfig, resolveConfigPath } from '@webhook-gateway/core/runtime';
import { loadPlugins } from '../../builtin-plugins.js';

/** The validated config in `--config FILE` or `<home>/config.yaml`; throws `ConfigError`. */
export async function loadConfigForReload(
  home: string,
  configFile: string | undefined,
): Promise<GatewayConfig> {
  const file = resolveConfigPath(home, configFile);
  if (!fs.existsSync(file)) {
    throw new ConfigError([{ path: file, message: 'config file not found' }]);
  }
  return (await loadConfig({ home, configFile: file, loadPlugins })).config;
}

/** `WEBHOOK_GATEWAY_WATCH_CONFIG=0` (or false/off/no) turns the file watcher off; SIGHUP still reloads. */
export function configWatchEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.WEBHOOK_GATEWAY_WATCH_CONFIG?.trim().toLowerCase();
  return !(value === '0' || value === 'false' || value === 'off' || value === 'no');
}
