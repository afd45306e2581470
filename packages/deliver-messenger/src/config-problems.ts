/**
 * Config mistakes that would make every delivery fail, found at setup instead: a route delivering
 * to a platform that is not enabled, an enabled platform without its credential, a route with no
 * chat to send to.
 */
import type { ConfigProblem, GatewayConfig } from '@webhook-gateway/core';
import { PROTOCOLS } from './protocols.js';
import { isMessengerTarget } from './targets.js';
import { platformSettings, type MessengerSettings } from './platform-settings.js';
import type { MessengerTarget } from './protocol.js';

/** Every problem of the messenger settings and the config's routes, each with its key path. */
export function messengerConfigProblems(
  messengers: MessengerSettings,
  config: GatewayConfig,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const protocol of Object.values(PROTOCOLS)) {
    const settings = platformSettings(messengers, protocol.target);
    if (settings.enabled && settings.credential === undefined) {
      problems.push({
        path: `platforms.${protocol.target}.${protocol.credentialKey}`,
        message: `is required when platforms.${protocol.target}.enabled is true: ${protocol.credentialHelp}`,
      });
    }
  }
  for (const [route, routeConfig] of Object.entries(config.platforms.webhook.extra.routes)) {
    const target = routeConfig.deliver;
    if (!isMessengerTarget(target)) continue;
    const settings = platformSettings(messengers, target);
    if (!settings.enabled) {
      problems.push({
        path: `platforms.webhook.extra.routes.${route}.deliver`,
        message: `delivers to ${target}, but platforms.${target}.enabled is not true`,
      });
    } else if (
      routeConfig.deliver_extra.chat_id === undefined &&
      settings.homeChannel === undefined
    ) {
      problems.push({
        path: `platforms.webhook.extra.routes.${route}.deliver_extra.chat_id`,
        message: noChatMessage(target),
      });
    }
  }
  return problems;
}

function noChatMessage(target: MessengerTarget): string {
  return `route delivers to ${target} but names no ${PROTOCOLS[target].chatNoun}: set deliver_extra.chat_id or platforms.${target}.home_channel`;
}
