/**
 * Config mistakes that would make every answer of a `webhook` route fail, found at start: a route
 * that names no endpoint, or one that is not configured. A name rendered from the payload
 * (`{…}`) is checked at each delivery instead.
 */
import type { ConfigProblem, GatewayConfig } from '@webhook-gateway/core';
import { endpointOf } from './endpoint-name.js';
import type { WebhookTargetSettings } from './settings.js';

export const WEBHOOK_TARGET = 'webhook';

export function webhookTargetProblems(
  settings: WebhookTargetSettings,
  config: GatewayConfig,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const [route, routeConfig] of Object.entries(config.platforms.webhook.extra.routes)) {
    if (routeConfig.deliver !== WEBHOOK_TARGET) continue;
    const named = routeConfig.deliver_extra.endpoint;
    if (typeof named === 'string' && named.includes('{')) continue;
    const endpoint = endpointOf(routeConfig.deliver_extra, settings);
    if (!endpoint.ok) {
      problems.push({
        path: `platforms.webhook.extra.routes.${route}.deliver_extra.endpoint`,
        message: endpoint.reason,
      });
    }
  }
  return problems;
}
