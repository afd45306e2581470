/** Delivering one answer to a messenger: pick the chat, split, send each part in order. */
import type { DeliverRequest } from '@webhook-gateway/core';
import { deliverParts, type DeliverContext } from '@webhook-gateway/target-kit';
import { resolveChatId, resolveThreadId } from './chat-id.js';
import { endpointOf, platformSettings, type MessengerSettings } from './platform-settings.js';
import type { MessengerProtocol, MessengerTarget } from './protocol.js';
import { PROTOCOLS } from './protocols.js';
import { messageParts } from './split-message.js';

/** Checks what a delivery needs (a dynamic subscription may name a platform no route does). */
function readyEndpoint(
  protocol: MessengerProtocol,
  request: DeliverRequest,
  messengers: MessengerSettings,
) {
  const { target } = protocol;
  const settings = platformSettings(messengers, target);
  if (!settings.enabled) {
    throw new Error(`cannot deliver to ${target}: platforms.${target}.enabled is not true`);
  }
  const endpoint = endpointOf(settings);
  if (!endpoint) {
    throw new Error(
      `cannot deliver to ${target}: platforms.${target}.${protocol.credentialKey} is not set`,
    );
  }
  const chatId = resolveChatId(request.extra, settings.homeChannel, target);
  return { endpoint, chatId, threadId: resolveThreadId(request.extra) };
}

/**
 * Sends `request.answer` through `protocol`, with the plugin's settings. Throws on failure so the worker retries; the error
 * says which target, chat and part failed and the service's own reason, never the token.
 */
export async function deliverToMessenger(
  protocol: MessengerProtocol,
  request: DeliverRequest,
  settings: MessengerSettings,
  context: DeliverContext,
): Promise<void> {
  const { endpoint, chatId, threadId } = readyEndpoint(protocol, request, settings);
  await deliverParts(
    request,
    {
      target: protocol.target,
      service: protocol.service,
      parts: messageParts(request.answer, protocol.maxLength),
      to: chatId,
      toNoun: protocol.chatNoun,
      verb: 'sending',
      request: (text) => protocol.sendRequest(endpoint, chatId, text, threadId),
      classify: (answer) => protocol.classifySend(answer),
      secrets: protocol.credentialIsSecret ? [endpoint.credential] : [],
    },
    context,
  );
}

/** `deliverToMessenger` with the protocol of `target`: the plugin's tap, loaded at its first use. */
export function deliverToTarget(
  target: MessengerTarget,
  request: DeliverRequest,
  settings: MessengerSettings,
  context: DeliverContext,
): Promise<void> {
  return deliverToMessenger(PROTOCOLS[target], request, settings, context);
}
