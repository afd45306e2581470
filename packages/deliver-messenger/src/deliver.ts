/** Delivering one answer to a messenger: pick the chat, split, send each part in order. */
import { errorMessage, type DeliverRequest } from '@webhook-gateway/core';
import { sendWithRateLimitRetries, type SentParts } from '@webhook-gateway/target-kit';
import { resolveChatId } from './chat-id.js';
import { callService, redact } from './http.js';
import type { MessengerOptions } from './options.js';
import { endpointOf, platformSettings } from './platform-settings.js';
import type { MessengerProtocol } from './protocol.js';
import { messageParts } from './split-message.js';

export interface DeliverContext {
  options: MessengerOptions;
  sentParts: SentParts;
}

/** Checks what is read at delivery time (a reloaded config or a dynamic subscription may differ). */
function readyEndpoint(protocol: MessengerProtocol, request: DeliverRequest) {
  const { target } = protocol;
  const settings = platformSettings(request.config, target);
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
  return { endpoint, chatId };
}

/**
 * Sends `request.answer` through `protocol`. Throws on failure so the worker retries; the error
 * says which target, chat and part failed and the service's own reason, never the token.
 */
export async function deliverToMessenger(
  protocol: MessengerProtocol,
  request: DeliverRequest,
  context: DeliverContext,
): Promise<void> {
  const { target, service } = protocol;
  const { endpoint, chatId } = readyEndpoint(protocol, request);
  const secrets = protocol.credentialIsSecret ? [endpoint.credential] : [];
  const parts = messageParts(request.answer, protocol.maxLength);
  const progressKey = `${target}\u0000${request.delivery.id}\u0000${chatId}`;
  const { options } = context;
  const first = context.sentParts.sentCount(progressKey);
  if (first > 0)
    request.log.info({ target, resumed_at_part: first + 1 }, 'resuming a split answer');

  for (let index = first; index < parts.length; index++) {
    const text = parts[index] ?? '';
    try {
      await sendWithRateLimitRetries(
        async () => {
          const answer = await callService(protocol.sendRequest(endpoint, chatId, text), {
            service,
            signal: request.signal,
            timeoutMs: options.request_timeout_s * 1000,
          });
          const outcome = protocol.classifySend(answer);
          if (outcome.kind === 'rate_limited') {
            request.log.warn(
              { target, retry_after_ms: outcome.retryAfterMs },
              `${service} is rate limiting; waiting before sending again`,
            );
          }
          return outcome;
        },
        { retries: options.rate_limit_retries, maxDelayMs: options.max_retry_after_s * 1000 },
        { service, signal: request.signal },
      );
    } catch (error) {
      if (request.signal.aborted) throw error;
      const which = parts.length > 1 ? ` part ${index + 1} of ${parts.length}` : '';
      throw new Error(
        redact(
          `${target} (${service}): sending${which} to ${protocol.chatNoun} ${chatId} failed: ${errorMessage(error)}`,
          secrets,
        ),
      );
    }
    context.sentParts.record(progressKey, index + 1);
  }
  context.sentParts.forget(progressKey);
  request.log.debug({ target, parts: parts.length }, `sent to ${service}`);
}
