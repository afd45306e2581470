/** Delivering one answer by SMS: pick the number, split, text each part in order. */
import type { DeliverRequest } from '@webhook-gateway/core';
import { deliverParts, type DeliverContext } from '@webhook-gateway/target-kit';
import { resolveRecipient } from './recipient.js';
import { twilioCredentials, type SmsSettings } from './settings.js';
import { smsParts } from './split-message.js';
import { classifyMessageAnswer, messageRequest } from './twilio.js';

/**
 * Texts `request.answer` through Twilio with the plugin's `platforms.sms` settings. Throws on
 * failure so the worker retries; the error says which number and part failed and Twilio's code
 * and message, never the auth token.
 */
export async function deliverSms(
  request: DeliverRequest,
  sms: SmsSettings,
  context: DeliverContext,
): Promise<void> {
  // A dynamic subscription may name sms although setup found no route delivering to it.
  if (!sms.enabled) throw new Error('cannot deliver to sms: platforms.sms.enabled is not true');
  const found = twilioCredentials(sms);
  if (!found.ok)
    throw new Error(`cannot deliver to sms: platforms.sms.${found.missing} is not set`);
  if (sms.from === undefined)
    throw new Error('cannot deliver to sms: platforms.sms.from is not set');
  const { credentials } = found;
  const from = sms.from;
  const to = resolveRecipient(request.extra, sms.home_number);
  await deliverParts(
    request,
    {
      target: 'sms',
      service: 'Twilio',
      parts: smsParts(request.answer),
      to,
      verb: 'texting',
      request: (body) => messageRequest(credentials, { to, from, body }),
      classify: classifyMessageAnswer,
      secrets: [credentials.authToken],
    },
    context,
  );
}
