/** The request `webhook test` sends: a forge-style delivery signed with the subscription's secret. */
import { createHmac, randomUUID } from 'node:crypto';
import type { Subscription } from '@webhook-gateway/core';

/** Where a gateway bound to `host:port` is reached from this machine (wildcards via loopback). */
export function gatewayBaseUrl(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  const reachable = bare === '0.0.0.0' ? '127.0.0.1' : bare === '::' ? '::1' : bare;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** The forge scheme's signature: `sha256=<hex of HMAC-SHA256(secret, body bytes)>`. */
export function forgeSignature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The payload sent when `--payload` is not given: small, ping-like, marked as a test. */
export function defaultTestPayload(name: string): string {
  return JSON.stringify({
    zen: 'Test delivery from `webhook-gateway webhook test`.',
    test: true,
    subscription: name,
  });
}

export interface TestDelivery {
  url: string;
  event: string;
  deliveryId: string;
  body: string;
  headers: Record<string, string>;
}

/**
 * The signed request for a subscription. The event is `--event`, else the subscription's first
 * event (so the test is not ignored), else `test`: a route that takes every event ignores `ping`
 * unless it lists it, but runs any other event.
 */
export function testDelivery(
  subscription: Pick<Subscription, 'name' | 'events' | 'secret'>,
  options: { baseUrl: string; payload?: string | undefined; event?: string | undefined },
): TestDelivery {
  const body = options.payload ?? defaultTestPayload(subscription.name);
  const event = options.event ?? subscription.events[0] ?? 'test';
  const deliveryId = `test-${randomUUID()}`;
  return {
    url: `${options.baseUrl.replace(/\/+$/, '')}/webhooks/${subscription.name}`,
    event,
    deliveryId,
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'webhook-gateway-test',
      'X-Forge-Event': event,
      'X-Forge-Delivery': deliveryId,
      'X-Forge-Signature-256': forgeSignature(body, subscription.secret),
    },
  };
}
