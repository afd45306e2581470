/** At start, each enabled platform checks its credential once and says whether it is connected. */
import type { Logger } from '@webhook-gateway/core';
import {
  checkService,
  logConnection,
  type CheckOptions,
  type CheckOutcome,
} from '@webhook-gateway/target-kit';
import { endpointOf, platformSettings, type MessengerSettings } from './platform-settings.js';
import type { MessengerProtocol } from './protocol.js';
import { PROTOCOLS } from './protocols.js';

/** Calls the protocol's check (getMe, users/@me, auth.test, /v1/about). Never throws. */
export async function checkConnection(
  protocol: MessengerProtocol,
  settings: MessengerSettings,
  options: CheckOptions,
): Promise<CheckOutcome> {
  const endpoint = endpointOf(platformSettings(settings, protocol.target));
  if (!endpoint) {
    return {
      connected: false,
      reason: `platforms.${protocol.target}.${protocol.credentialKey} is not set`,
    };
  }
  return checkService(
    {
      service: protocol.service,
      request: () => protocol.checkRequest(endpoint),
      classify: (answer) => protocol.classifyCheck(answer),
      secrets: protocol.credentialIsSecret ? [endpoint.credential] : [],
    },
    options,
  );
}

/**
 * Checks every enabled platform at once and logs `connected` (with the bot's name when the service
 * gives it) or a warning `not connected: <reason>`.
 */
export async function logConnections(
  settings: MessengerSettings,
  log: Logger,
  options: CheckOptions,
): Promise<void> {
  const enabled = Object.values(PROTOCOLS).filter(
    (protocol) => platformSettings(settings, protocol.target).enabled,
  );
  await Promise.all(
    enabled.map(async (protocol) => {
      const outcome = await checkConnection(protocol, settings, options);
      logConnection(log, protocol.target, `${protocol.target} (${protocol.service})`, outcome);
    }),
  );
}
