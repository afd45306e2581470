/** Delivering one answer by SMS: pick the number, split, text each part in order. */
import { errorMessage, type DeliverRequest } from '@webhook-gateway/core';
import { sendWithRateLimitRetries, type SentParts } from '@webhook-gateway/target-kit';
import { callTwilio, redact } from './http.js';
import type { SmsOptions } from './options.js';
import { resolveRecipient } from './recipient.js';
import { twilioCredentials } from './settings.js';
import { smsParts } from './split-message.js';
import { classifyMessageAnswer, messageRequest } from './twilio.js';

export interface DeliverContext {
  options: SmsOptions;
  sentParts: SentParts;
}

/**
 * Texts `request.answer` through Twilio. Throws on failure so the worker retries; the error says
 * which number and part failed and Twilio's code and message, never the auth token.
 */
export async function deliverSms(request: DeliverRequest, context: DeliverContext): Promise<void> {
  const sms = request.config.platforms.sms;
  // Read at delivery time: a reloaded config or a dynamic subscription may differ from setup's.
  if (!sms.enabled) throw new Error('cannot deliver to sms: platforms.sms.enabled is not true');
  const found = twilioCredentials(request.config);
  if (!found.ok)
    throw new Error(`cannot deliver to sms: platforms.sms.${found.missing} is not set`);
  if (sms.from === undefined)
    throw new Error('cannot deliver to sms: platforms.sms.from is not set');
  const { credentials } = found;
  const from = sms.from;
  const to = resolveRecipient(request.extra, sms.home_number);
  const parts = smsParts(request.answer);
  const progressKey = `${request.delivery.id}\u0000${to}`;
  const { options } = context;
  const first = context.sentParts.sentCount(progressKey);
  if (first > 0)
    request.log.info({ target: 'sms', resumed_at_part: first + 1 }, 'resuming a split answer');

  for (let index = first; index < parts.length; index++) {
    const body = parts[index] ?? '';
    try {
      await sendWithRateLimitRetries(
        async () => {
          const answer = await callTwilio(messageRequest(credentials, { to, from, body }), {
            signal: request.signal,
            timeoutMs: options.request_timeout_s * 1000,
          });
          const outcome = classifyMessageAnswer(answer);
          if (outcome.kind === 'rate_limited') {
            request.log.warn(
              { target: 'sms', retry_after_ms: outcome.retryAfterMs },
              'Twilio is rate limiting; waiting before sending again',
            );
          }
          return outcome;
        },
        { retries: options.rate_limit_retries, maxDelayMs: options.max_retry_after_s * 1000 },
        { service: 'Twilio', signal: request.signal },
      );
    } catch (error) {
      if (request.signal.aborted) throw error;
      const which = parts.length > 1 ? ` part ${index + 1} of ${parts.length}` : '';
      throw new Error(
        redact(`sms (Twilio): texting${which} to ${to} failed: ${errorMessage(error)}`, [
          credentials.authToken,
        ]),
      );
    }
    context.sentParts.record(progressKey, index + 1);
  }
  context.sentParts.forget(progressKey);
  request.log.debug({ target: 'sms', parts: parts.length }, 'sent to Twilio');
}
