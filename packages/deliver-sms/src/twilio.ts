/**
 * The Twilio Messages API: form-encoded requests with basic auth `account_sid:auth_token`; errors
 * as `{code, message, more_info, status}`.
 * https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource
 */
import { z } from 'zod';
import {
  bodyExcerpt,
  rateLimitedByHeader,
  serverErrorReason,
  type CheckOutcome,
  type SendOutcome,
  type ServiceAnswer,
  type ServiceRequest,
} from '@webhook-gateway/target-kit';

/** What a message is sent with. */
export interface TwilioCredentials {
  /** `api_base` without a trailing slash. */
  apiBase: string;
  accountSid: string;
  authToken: string;
}

const twilioErrorSchema = z.object({
  code: z.number().optional(),
  message: z.string(),
  more_info: z.string().optional(),
  status: z.number().optional(),
});

const twilioAccountSchema = z.object({
  sid: z.string(),
  friendly_name: z.string().optional(),
  status: z.string().optional(),
});

function authorization({ accountSid, authToken }: TwilioCredentials): string {
  return `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
}

function accountUrl(credentials: TwilioCredentials): string {
  return `${credentials.apiBase}/2010-04-01/Accounts/${encodeURIComponent(credentials.accountSid)}`;
}

/** Twilio's error in its own words: message, code and where it explains the code. */
function describeTwilioError(answer: ServiceAnswer): string {
  const parsed = twilioErrorSchema.safeParse(answer.body).data;
  if (!parsed) return `HTTP ${answer.status}, unexpected answer: ${bodyExcerpt(answer.body)}`;
  const details = [
    parsed.code === undefined ? `HTTP ${answer.status}` : `error ${parsed.code}`,
    parsed.more_info,
  ]
    .filter(Boolean)
    .join(', ');
  return `${parsed.message} (${details})`;
}

/** `POST …/Accounts/{sid}/Messages.json` with `To`, `From`, `Body`. */
export function messageRequest(
  credentials: TwilioCredentials,
  message: { to: string; from: string; body: string },
): ServiceRequest {
  return {
    method: 'POST',
    url: `${accountUrl(credentials)}/Messages.json`,
    headers: {
      authorization: authorization(credentials),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      To: message.to,
      From: message.from,
      Body: message.body,
    }).toString(),
  };
}

/** Sent on a 2xx; a 429 waits `Retry-After`; anything else fails with Twilio's words. */
export function classifyMessageAnswer(answer: ServiceAnswer): SendOutcome {
  if (answer.status === 429) return rateLimitedByHeader(answer);
  if (answer.status >= 500)
    return { kind: 'failed', reason: serverErrorReason('Twilio', answer.status) };
  if (answer.status >= 200 && answer.status < 300) return { kind: 'sent' };
  return { kind: 'failed', reason: `Twilio refused the message: ${describeTwilioError(answer)}` };
}

/** `GET …/Accounts/{sid}.json`: proves the SID and token work. */
export function accountRequest(credentials: TwilioCredentials): ServiceRequest {
  return {
    method: 'GET',
    url: `${accountUrl(credentials)}.json`,
    headers: { authorization: authorization(credentials) },
  };
}

/** Connected when the account answers and is active. */
export function classifyAccountAnswer(answer: ServiceAnswer): CheckOutcome {
  if (answer.status >= 200 && answer.status < 300) {
    const account = twilioAccountSchema.safeParse(answer.body).data;
    if (!account)
      return {
        connected: false,
        reason: `unexpected answer from Twilio: ${bodyExcerpt(answer.body)}`,
      };
    if (account.status !== undefined && account.status !== 'active') {
      return { connected: false, reason: `the Twilio account ${account.sid} is ${account.status}` };
    }
    return { connected: true, identity: account.friendly_name ?? account.sid };
  }
  if (answer.status === 401) {
    return {
      connected: false,
      reason: `Twilio rejected platforms.sms.account_sid / auth_token: ${describeTwilioError(answer)}`,
    };
  }
  return {
    connected: false,
    reason: `Twilio answered the account check with ${describeTwilioError(answer)}`,
  };
}
