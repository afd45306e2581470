/**
 * messenger_b: Discord's HTTP API (v10) with a bot token. Errors are `{message, code}`; a 429
 * carries `retry_after` (seconds, decimal) and a `Retry-After` header.
 * https://discord.com/developers/docs/resources/message#create-message
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

const discordErrorSchema = z.object({
  message: z.string(),
  code: z.number().optional(),
  retry_after: z.number().optional(),
});

const discordUserSchema = z.object({ id: z.string(), username: z.string() });

/** Discord asks bots to name themselves this way; a bare client may be blocked. */
const USER_AGENT = 'DiscordBot (https://github.com/webhook-gateway/webhook-gateway, 0.1.0)';

function refusal(answer: ServiceAnswer): string {
  const parsed = discordErrorSchema.safeParse(answer.body).data;
  if (!parsed) return `HTTP ${answer.status}, unexpected answer: ${bodyExcerpt(answer.body)}`;
  return `${parsed.message} (HTTP ${answer.status}${parsed.code ? `, code ${parsed.code}` : ''})`;
}

function headers(token: string): Record<string, string> {
  return { authorization: `Bot ${token}`, 'user-agent': USER_AGENT };
}

export const discord: MessengerProtocol = {
  target: 'messenger_b',
  service: 'Discord',
  maxLength: 2000,
  credentialKey: 'token',
  credentialHelp:
    'the bot token from the Discord Developer Portal (your application → Bot → Reset Token)',
  credentialIsSecret: true,
  chatNoun: 'channel',

  sendRequest({ apiBase, credential }, chatId, text, threadId) {
    return {
      method: 'POST',
      // A Discord thread is a channel of its own: the message goes there.
      url: `${apiBase}/api/v10/channels/${encodeURIComponent(threadId ?? chatId)}/messages`,
      headers: { ...headers(credential), 'content-type': 'application/json' },
      // The answer may quote attacker-written text: never let it ping @everyone or roles.
      body: JSON.stringify({ content: text, allowed_mentions: { parse: [] } }),
    };
  },

  classifySend(answer): SendOutcome {
    if (answer.status === 429) {
      const parsed = discordErrorSchema.safeParse(answer.body).data;
      const retryAfterMs =
        retryAfterSecondsToMs(parsed?.retry_after) ??
        parseRetryAfter(answer.headers.get('retry-after')) ??
        DEFAULT_RETRY_AFTER_MS;
      return { kind: 'rate_limited', retryAfterMs };
    }
    if (answer.status >= 500)
      return { kind: 'failed', reason: serverErrorReason('Discord', answer.status) };
    if (answer.status >= 200 && answer.status < 300) return { kind: 'sent' };
    return { kind: 'failed', reason: `Discord refused the message: ${refusal(answer)}` };
  },

  checkRequest({ apiBase, credential }) {
    return { method: 'GET', url: `${apiBase}/api/v10/users/@me`, headers: headers(credential) };
  },

  classifyCheck(answer): CheckOutcome {
    if (answer.status >= 200 && answer.status < 300) {
      const user = discordUserSchema.safeParse(answer.body).data;
      if (user) return { connected: true, identity: user.username };
      return {
        connected: false,
        reason: `unexpected answer from Discord: ${bodyExcerpt(answer.body)}`,
      };
    }
    if (answer.status === 401) {
      return { connected: false, reason: `Discord rejected the bot token: ${refusal(answer)}` };
    }
    return { connected: false, reason: `Discord answered users/@me with ${refusal(answer)}` };
  },
};
