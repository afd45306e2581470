/**
 * `deliver_extra.check` and `deliver_extra.details` on this plugin's targets: each is `true` or
 * `false`, checked when the config is read, so `check: "yes"` never silently shows nothing.
 */
import type { ConfigProblem, GatewayConfig } from '@webhook-gateway/core';

const SWITCHES = ['check', 'details'] as const;

/** Routes to `targets` whose `deliver_extra.check` or `.details` is set to something not a boolean. */
export function checkSettingProblems(
  config: GatewayConfig,
  targets: readonly string[],
): ConfigProblem[] {
  return Object.entries(config.platforms.webhook.extra.routes).flatMap(([name, route]) => {
    if (!targets.includes(route.deliver)) return [];
    return SWITCHES.flatMap((key) => {
      const value = route.deliver_extra[key];
      if (value === undefined || typeof value === 'boolean') return [];
      return [
        {
          path: `platforms.webhook.extra.routes.${name}.deliver_extra.${key}`,
          message: `${route.deliver}: must be true or false, not ${JSON.stringify(value)}`,
        },
      ];
    });
  });
}
