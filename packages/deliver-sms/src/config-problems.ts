/**
 * Config mistakes that would make every text fail, found at setup instead: a route delivering to
 * sms while it is not enabled, an enabled sms platform without its credentials, a route with no
 * number to text.
 */
import type { ConfigProblem, GatewayConfig } from '@webhook-gateway/core';
import type { SmsSettings } from './settings.js';

/** Each credential key and where an operator finds it. */
const REQUIRED_KEYS = [
  ['account_sid', 'the Account SID (AC…) on the Twilio Console dashboard'],
  ['auth_token', 'the Auth Token next to the Account SID on the Twilio Console dashboard'],
  ['from', 'a Twilio phone number that can send SMS, in E.164 form ("+15550003333")'],
] as const;

/** Every sms problem of `sms` and the config's routes, each with its key path; empty when all is well. */
export function smsConfigProblems(sms: SmsSettings, config: GatewayConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (sms.enabled) {
    for (const [key, help] of REQUIRED_KEYS) {
      if (sms[key] === undefined) {
        problems.push({
          path: `platforms.sms.${key}`,
          message: `is required when platforms.sms.enabled is true: ${help}`,
        });
      }
    }
  }
  for (const [route, routeConfig] of Object.entries(config.platforms.webhook.extra.routes)) {
    if (routeConfig.deliver !== 'sms') continue;
    if (!sms.enabled) {
      problems.push({
        path: `platforms.webhook.extra.routes.${route}.deliver`,
        message: 'delivers to sms, but platforms.sms.enabled is not true',
      });
    } else if (
      routeConfig.deliver_extra.to === undefined &&
      routeConfig.deliver_extra.chat_id === undefined &&
      sms.home_number === undefined
    ) {
      problems.push({
        path: `platforms.webhook.extra.routes.${route}.deliver_extra.to`,
        message:
          'route delivers to sms but names no number: set deliver_extra.to or platforms.sms.home_number',
      });
    }
  }
  return problems;
}
