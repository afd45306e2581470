/** `platforms.sms` read into what a call needs. */
import type { GatewayConfig } from '@webhook-gateway/core';
import type { TwilioCredentials } from './twilio.js';

/** The credentials, or the first missing key. */
export function twilioCredentials(
  config: GatewayConfig,
): { ok: true; credentials: TwilioCredentials } | { ok: false; missing: string } {
  const sms = config.platforms.sms;
  if (sms.account_sid === undefined) return { ok: false, missing: 'account_sid' };
  if (sms.auth_token === undefined) return { ok: false, missing: 'auth_token' };
  return {
    ok: true,
    credentials: {
      apiBase: sms.api_base.replace(/\/+$/, ''),
      accountSid: sms.account_sid,
      authToken: sms.auth_token,
    },
  };
}
