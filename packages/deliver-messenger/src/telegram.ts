/**
 * messenger_a: the Telegram Bot API. Every answer is `{ok, result}` or
 * `{ok: false, error_code, description, parameters?}`; the token lives in the URL path.
 * https://core.telegram.org/bots/api
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

const telegramAnswerSchema = z.object({
  ok: z.boolean(),
  description: z.string().optional(),
  error_code: z.number().optional(),
  parameters: z.object({ retry_after: z.number().optional() }).optional(),
  result: z.unknown().optional(),
});

const telegramUserSchema = z.object({
  username: z.string().optional(),
  first_name: z.string().optional(),
});

type TelegramAnswer = z.infer<typeof telegramAnswerSchema>;

function refusal(answer: ServiceAnswer, parsed: TelegramAnswer | undefined): string {
  if (!parsed) return `HTTP ${answer.status}, unexpected answer: ${bodyExcerpt(answer.body)}`;
  const code = parsed.error_code ?? answer.status;
  return `${parsed.description ?? 'no description'} (error ${code})`;
}

export const telegram: MessengerProtocol = {
  target: 'messenger_a',
  service: 'Telegram',
  maxLength: 4096,
  credentialKey: 'token',
  credentialHelp: 'the bot token @BotFather gives when you create the bot',
  credentialIsSecret: true,
  chatNoun: 'chat',

  sendRequest({ apiBase, credential }, chatId, text, threadId) {
    return {
      method: 'POST',
      url: `${apiBase}/bot${credential}/sendMessage`,
      headers: { 'content-type': 'application/json' },
      // No parse_mode: agent output is not valid Telegram Markdown/HTML, and plain text always is.
      body: JSON.stringify({
        chat_id: chatId,
        text,
        // A forum topic: Telegram wants the number.
        ...(threadId === undefined ? {} : { message_thread_id: Number(threadId) }),
      }),
    };
  },

  classifySend(answer): SendOutcome {
    const parsed = telegramAnswerSchema.safeParse(answer.body).data;
    if (answer.status === 429) {
      const retryAfterMs =
        retryAfterSecondsToMs(parsed?.parameters?.retry_after) ??
        parseRetryAfter(answer.headers.get('retry-after')) ??
        DEFAULT_RETRY_AFTER_MS;
      return { kind: 'rate_limited', retryAfterMs };
    }
    if (answer.status >= 500)
      return { kind: 'failed', reason: serverErrorReason('Telegram', answer.status) };
    if (answer.status >= 200 && answer.status < 300 && parsed?.ok === true) return { kind: 'sent' };
    return { kind: 'failed', reason: `Telegram refused the message: ${refusal(answer, parsed)}` };
  },

  checkRequest({ apiBase, credential }) {
    return { method: 'GET', url: `${apiBase}/bot${credential}/getMe`, headers: {} };
  },

  classifyCheck(answer): CheckOutcome {
    const parsed = telegramAnswerSchema.safeParse(answer.body).data;
    if (answer.status >= 200 && answer.status < 300 && parsed?.ok === true) {
      const user = telegramUserSchema.safeParse(parsed.result).data;
      const identity = user?.username ? `@${user.username}` : user?.first_name;
      return identity ? { connected: true, identity } : { connected: true };
    }
    if (answer.status === 401 || answer.status === 404) {
      // Telegram answers 404 for a token of the wrong shape, 401 for an unknown one.
      return {
        connected: false,
        reason: `Telegram rejected the bot token: ${refusal(answer, parsed)}`,
      };
    }
    return { connected: false, reason: `Telegram answered getMe with ${refusal(answer, parsed)}` };
  },
};
