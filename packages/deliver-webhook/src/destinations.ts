/**
 * Where an outbox destination goes, from the live config: a lifecycle subscriber of
 * `extra.outbound` (`outbound:<hash>`) or an endpoint of `platforms.webhook_target`
 * (`endpoint:<name>`). Read at each send, so a reload's URLs and secrets apply to the next one.
 */
import { outboundDestination, type GatewayConfig } from '@webhook-gateway/core';
import type { WebhookTargetSettings } from './settings.js';

export interface Destination {
  url: string;
  secret: string;
}

/** The destination key of a `webhook_target` endpoint. */
export function endpointDestination(name: string): string {
  return `endpoint:${name}`;
}

const byConfig = new WeakMap<GatewayConfig, ReadonlyMap<string, Destination>>();

/** Every destination `config` knows, by key; worked out once per config object. */
export function destinationsOf(
  config: GatewayConfig,
  target: WebhookTargetSettings,
): ReadonlyMap<string, Destination> {
  const known = byConfig.get(config);
  if (known) return known;
  const destinations = new Map<string, Destination>();
  for (const { url, secret } of config.platforms.webhook.extra.outbound) {
    destinations.set(outboundDestination(url), { url, secret });
  }
  for (const [name, { url, secret }] of Object.entries(target.endpoints)) {
    destinations.set(endpointDestination(name), { url, secret });
  }
  byConfig.set(config, destinations);
  return destinations;
}
