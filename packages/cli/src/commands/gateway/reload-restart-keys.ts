/** Settings a reload cannot apply to a running gateway: they are read once, at start. */
import { isDeepStrictEqual } from 'node:util';
import type { GatewayConfig } from '@webhook-gateway/core';

/** Each key path, and how to read it from a config. */
const READ_AT_START: readonly [string, (config: GatewayConfig) => unknown][] = [
  ['plugins', (c) => c.plugins],
  ['store', (c) => c.store],
  ['platforms.webhook.enabled', (c) => c.platforms.webhook.enabled],
  ['platforms.webhook.extra.host', (c) => c.platforms.webhook.extra.host],
  ['platforms.webhook.extra.port', (c) => c.platforms.webhook.extra.port],
  ['platforms.webhook.extra.request_timeout_s', (c) => c.platforms.webhook.extra.request_timeout_s],
  ['platforms.webhook.extra.admin', (c) => c.platforms.webhook.extra.admin],
];

/** A plugin-owned slice (`platforms.sms`): its plugin reads it once, at setup. */
function pluginSlice(key: string): [string, (config: GatewayConfig) => unknown] {
  return [`platforms.${key}`, (c) => (c.platforms as Readonly<Record<string, unknown>>)[key]];
}

/**
 * The start-only key paths whose value differs between the running and the reloaded config;
 * `pluginSlices` are the keys under `platforms:` that the loaded plugins own.
 */
export function restartOnlyChanges(
  running: GatewayConfig,
  next: GatewayConfig,
  pluginSlices: readonly string[] = [],
): string[] {
  return [...READ_AT_START, ...pluginSlices.map(pluginSlice)]
    .filter(([, read]) => !isDeepStrictEqual(read(running), read(next)))
    .map(([key]) => key);
}
