/** At start, each enabled platform checks its credential once and says whether it is connected. */
import { errorMessage, type GatewayConfig, type Logger } from '@webhook-gateway/core';
import { callService, redact } from './http.js';
import { endpointOf, platformSettings } from './platform-settings.js';
import type { CheckOutcome, MessengerProtocol } from './protocol.js';
import { PROTOCOLS } from './protocols.js';

/** Calls the protocol's check (getMe, users/@me, auth.test, /v1/about). Never throws. */
export async function checkConnection(
  protocol: MessengerProtocol,
  config: GatewayConfig,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<CheckOutcome> {
  const settings = platformSettings(config, protocol.target);
  const endpoint = endpointOf(settings);
  if (!endpoint) {
    return {
      connected: false,
      reason: `platforms.${protocol.target}.${protocol.credentialKey} is not set`,
    };
  }
  const secrets = protocol.credentialIsSecret ? [endpoint.credential] : [];
  try {
    const answer = await callService(protocol.checkRequest(endpoint), {
      service: protocol.service,
      signal: options.signal ?? new AbortController().signal,
      timeoutMs: options.timeoutMs,
    });
    const outcome = protocol.classifyCheck(answer);
    return outcome.connected
      ? outcome
      : { connected: false, reason: redact(outcome.reason, secrets) };
  } catch (error) {
    return { connected: false, reason: redact(errorMessage(error), secrets) };
  }
}

/**
 * Checks every enabled platform at once and logs `connected` (with the bot's name when the service
 * gives it) or a warning `not connected: <reason>`. A failed check never stops the gateway: the
 * service may be down for a moment, and each delivery retries anyway.
 */
export async function logConnections(
  config: GatewayConfig,
  log: Logger,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<void> {
  const enabled = Object.values(PROTOCOLS).filter(
    (protocol) => platformSettings(config, protocol.target).enabled,
  );
  await Promise.all(
    enabled.map(async (protocol) => {
      const outcome = await checkConnection(protocol, config, options);
      const name = `${protocol.target} (${protocol.service})`;
      if (outcome.connected) {
        log.info(
          {
            platform: protocol.target,
            ...(outcome.identity ? { identity: outcome.identity } : {}),
          },
          outcome.identity ? `${name} connected as ${outcome.identity}` : `${name} connected`,
        );
      } else {
        log.warn({ platform: protocol.target }, `${name} not connected: ${outcome.reason}`);
      }
    }),
  );
}
