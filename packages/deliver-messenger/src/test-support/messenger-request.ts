/** Requests whose config holds the messenger slices, and the settings setup would get from it. */
import type { DeliverRequest, GatewayConfig } from '@webhook-gateway/core';
import { deliverRequest } from '@webhook-gateway/target-kit/testing';
import type { CheckOptions, CheckOutcome, DeliverContext } from '@webhook-gateway/target-kit';
import { checkConnection } from '../connection-check.js';
import { deliverToMessenger } from '../deliver.js';
import plugin from '../index.js';
import type { MessengerSettings } from '../platform-settings.js';
import type { MessengerProtocol } from '../protocol.js';

/** `deliverRequest` with this plugin loaded, so `platforms` may hold `messenger_a` … `messenger_d`. */
export function messengerRequest(
  options: Omit<Parameters<typeof deliverRequest>[0], 'plugins'>,
): DeliverRequest {
  return deliverRequest({ ...options, plugins: [plugin] });
}

/** The slices as the plugin loader hands them to `setup`: the validated config's own values. */
export function settingsIn(config: GatewayConfig): MessengerSettings {
  const platforms = config.platforms as unknown as MessengerSettings;
  const { messenger_a, messenger_b, messenger_c, messenger_d } = platforms;
  return { messenger_a, messenger_b, messenger_c, messenger_d };
}

/** Delivers `request` with the settings its config holds, as the plugin's tap does. */
export function deliverWithConfig(
  protocol: MessengerProtocol,
  request: DeliverRequest,
  context: DeliverContext,
): Promise<void> {
  return deliverToMessenger(protocol, request, settingsIn(request.config), context);
}

/** Checks `protocol`'s credential with the settings `config` holds. */
export function checkWithConfig(
  protocol: MessengerProtocol,
  config: GatewayConfig,
  options: CheckOptions,
): Promise<CheckOutcome> {
  return checkConnection(protocol, settingsIn(config), options);
}
