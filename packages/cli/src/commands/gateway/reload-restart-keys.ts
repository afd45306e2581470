/** Settings a reload cannot apply to a running gateway: they are read once, at start. */
import { isDeepStrictEqual } from 'node:util';
import type { GatewayConfig } from '@webhook-gateway/core';

/** Each key path, and how to read it from a config. */
const READ_AT_START: readonly [string, (config: GatewayConfig) => unknown][] = [
  ['plugins', (c) => c.plugins],
  ['store', (c) => c.store],
  // The tracer is opened with the gateway.
  ['observability', (c) => c.observability],
  ['platforms.webhook.enabled', (c) => c.platforms.webhook.enabled],
  ['platforms.webhook.extra.host', (c) => c.platforms.webhook.extra.host],
  ['platforms.webhook.extra.port', (c) => c.platforms.webhook.extra.port],
  ['platforms.webhook.extra.request_timeout_s', (c) => c.platforms.webhook.extra.request_timeout_s],
  ['platforms.webhook.extra.admin', (c) => c.platforms.webhook.extra.admin],
  // The reconcile pass is scheduled, with its routes and hooks, when the gateway starts.
  ['platforms.webhook.extra.public_url', (c) => c.platforms.webhook.extra.public_url],
  [
    'platforms.webhook.extra.reconcile_interval_s',
    (c) => c.platforms.webhook.extra.reconcile_interval_s,
  ],
  [
    'platforms.webhook.extra.routes.*.reconcile',
    (c) =>
      Object.entries(c.platforms.webhook.extra.routes).flatMap(([name, r]) =>
        r.reconcile === undefined ? [] : [[name, r.reconcile]],
      ),
  ],
];

/** The start-only key paths whose value differs between the running and the reloaded config. */
export function restartOnlyChanges(running: GatewayConfig, next: GatewayConfig): string[] {
  return READ_AT_START.filter(([, read]) => !isDeepStrictEqual(read(running), read(next))).map(
    ([key]) => key,
  );
}
