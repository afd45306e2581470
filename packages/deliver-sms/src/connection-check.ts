/** At start, an enabled sms platform checks its Twilio credentials once and says so. */
import type { Logger } from '@webhook-gateway/core';
import {
  checkService,
  logConnection,
  type CheckOptions,
  type CheckOutcome,
} from '@webhook-gateway/target-kit';
import { twilioCredentials, type SmsSettings } from './settings.js';
import { accountRequest, classifyAccountAnswer } from './twilio.js';

/** Fetches the account (`GET …/Accounts/{sid}.json`). Never throws. */
export async function checkTwilio(sms: SmsSettings, options: CheckOptions): Promise<CheckOutcome> {
  const found = twilioCredentials(sms);
  if (!found.ok) return { connected: false, reason: `platforms.sms.${found.missing} is not set` };
  const { credentials } = found;
  return checkService(
    {
      service: 'Twilio',
      request: () => accountRequest(credentials),
      classify: classifyAccountAnswer,
      secrets: [credentials.authToken],
    },
    options,
  );
}

/** Logs `sms (Twilio) connected as <account name>` or a warning `… not connected: <reason>`. */
export async function logTwilioConnection(
  sms: SmsSettings,
  log: Logger,
  options: CheckOptions,
): Promise<void> {
  if (!sms.enabled) return;
  logConnection(log, 'sms', 'sms (Twilio)', await checkTwilio(sms, options));
}
