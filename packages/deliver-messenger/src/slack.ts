/**
 * messenger_c: Slack's Web API. Failures come as HTTP 200 with `{"ok": false, "error": "<code>"}`;
 * rate limits as HTTP 429 with `Retry-After`.
 * https://api.slack.com/methods/chat.postMessage
 */
import { z } from 'zod';
import type { CheckOutcome, MessengerProtocol, SendOutcome } from './protocol.js';
import {
  bodyExcerpt,
  DEFAULT_RETRY_AFTER_MS,
  parseRetryAfter,
  retryAfterSecondsToMs,
  serverErrorReason,
  type ServiceAnswer,
} from '@webhook-gateway/target-kit';

const slackAnswerSchema = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  retry_after: z.number().optional(),
  user: z.string().optional(),
  team: z.string().optional(),
});

/** What to do about Slack's most common error codes. */
const SLACK_HINTS: Readonly<Record<string, string>> = {
  channel_not_found:
    'no such channel, or the bot cannot see it (use the channel ID, e.g. C0123456)',
  not_in_channel: 'invite the bot to the channel (/invite @your-bot)',
  is_archived: 'the channel is archived',
  invalid_auth: 'the token is not valid; copy the Bot User OAuth Token (xoxb-…) again',
  not_authed: 'no token was sent; set platforms.messenger_c.token',
  token_revoked: 'the token was revoked; reinstall the app to get a new one',
  missing_scope: 'the app lacks the chat:write scope; add it and reinstall the app',
  msg_too_long: 'the message is too long',
};

/** Slack's error code, with what to do when we know. */
export function describeSlackError(code: string): string {
  const hint = SLACK_HINTS[code];
  return hint ? `${code} (${hint})` : code;
}

function failure(answer: ServiceAnswer): string {
  const parsed = slackAnswerSchema.safeParse(answer.body).data;
  if (parsed?.error) return describeSlackError(parsed.error);
  return `HTTP ${answer.status}, unexpected answer: ${bodyExcerpt(answer.body)}`;
}

export const slack: MessengerProtocol = {
  target: 'messenger_c',
  service: 'Slack',
  maxLength: 4000,
  credentialKey: 'token',
  credentialHelp:
    'the Bot User OAuth Token (xoxb-…) from api.slack.com/apps → your app → OAuth & Permissions, with the chat:write scope',
  credentialIsSecret: true,
  chatNoun: 'channel',

  sendRequest({ apiBase, credential }, chatId, text, threadId) {
    return {
      method: 'POST',
      url: `${apiBase}/api/chat.postMessage`,
      headers: {
        authorization: `Bearer ${credential}`,
        'content-type': 'application/json; charset=utf-8',
      },
      body: JSON.stringify({
        channel: chatId,
        text,
        ...(threadId === undefined ? {} : { thread_ts: threadId }),
      }),
    };
  },

  classifySend(answer): SendOutcome {
    if (answer.status === 429) {
      const parsed = slackAnswerSchema.safeParse(answer.body).data;
      const retryAfterMs =
        parseRetryAfter(answer.headers.get('retry-after')) ??
        retryAfterSecondsToMs(parsed?.retry_after) ??
        DEFAULT_RETRY_AFTER_MS;
      return { kind: 'rate_limited', retryAfterMs };
    }
    if (answer.status >= 500)
      return { kind: 'failed', reason: serverErrorReason('Slack', answer.status) };
    const parsed = slackAnswerSchema.safeParse(answer.body).data;
    // Slack says "ok": false with HTTP 200: the status alone proves nothing.
    if (answer.status === 200 && parsed?.ok === true) return { kind: 'sent' };
    return { kind: 'failed', reason: `Slack refused the message: ${failure(answer)}` };
  },

  checkRequest({ apiBase, credential }) {
    return {
      method: 'POST',
      url: `${apiBase}/api/auth.test`,
      headers: { authorization: `Bearer ${credential}` },
    };
  },

  classifyCheck(answer): CheckOutcome {
    const parsed = slackAnswerSchema.safeParse(answer.body).data;
    if (answer.status === 200 && parsed?.ok === true) {
      if (!parsed.user) return { connected: true };
      return {
        connected: true,
        identity: parsed.team ? `${parsed.user} in ${parsed.team}` : parsed.user,
      };
    }
    return { connected: false, reason: `Slack auth.test failed: ${failure(answer)}` };
  },
};
