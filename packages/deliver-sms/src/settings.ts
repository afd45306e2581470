/** `platforms.sms`: the slice of config this plugin owns, and what a call reads from it. */
import { z } from 'zod';
import type { TwilioCredentials } from './twilio.js';

/** The schema of `platforms.sms`, with its defaults (`api_base` is Twilio's). */
export const smsSettingsSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    account_sid: z.string().min(1).optional(),
    auth_token: z.string().min(1).optional(),
    from: z.string().min(1).optional(),
    home_number: z.string().min(1).optional(),
    api_base: z.url().default('https://api.twilio.com'),
  })
  .prefault({});

/** `platforms.sms` validated, defaults filled in. */
export type SmsSettings = z.output<typeof smsSettingsSchema>;

/** The credentials, or the first missing key. */
export function twilioCredentials(
  sms: SmsSettings,
): { ok: true; credentials: TwilioCredentials } | { ok: false; missing: string } {
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
