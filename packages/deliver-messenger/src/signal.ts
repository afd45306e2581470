/**
 * messenger_d: the signal-cli REST API (bbernhard/signal-cli-rest-api), which sends from a number
 * registered with signal-cli. It has no token: keep it on a private network. Errors are
 * `{"error": "..."}`.
 * https://bbernhard.github.io/signal-cli-rest-api/
 */
import { z } from 'zod';
import type { CheckOutcome, MessengerProtocol, SendOutcome } from './protocol.js';
import {
  bodyExcerpt,
  rateLimitedByHeader,
  serverErrorReason,
  type ServiceAnswer,
} from '@webhook-gateway/target-kit';

const signalErrorSchema = z.object({ error: z.string() });

const signalAboutSchema = z.object({
  version: z.string().optional(),
  mode: z.string().optional(),
  versions: z.array(z.string()).optional(),
});

function refusal(answer: ServiceAnswer): string {
  const parsed = signalErrorSchema.safeParse(answer.body).data;
  if (parsed) return `${parsed.error} (HTTP ${answer.status})`;
  return `HTTP ${answer.status}, unexpected answer: ${bodyExcerpt(answer.body)}`;
}

export const signal: MessengerProtocol = {
  target: 'messenger_d',
  service: 'signal-cli REST API',
  maxLength: 4096,
  credentialKey: 'number',
  credentialHelp:
    'the phone number registered with signal-cli (international format, e.g. "+15550001111")',
  credentialIsSecret: false,
  chatNoun: 'recipient',

  sendRequest({ apiBase, credential }, chatId, text) {
    return {
      method: 'POST',
      url: `${apiBase}/v2/send`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: text, number: credential, recipients: [chatId] }),
    };
  },

  classifySend(answer): SendOutcome {
    if (answer.status === 429) return rateLimitedByHeader(answer);
    if (answer.status >= 500) {
      return {
        kind: 'failed',
        reason: `${serverErrorReason('signal-cli REST API', answer.status)}: ${refusal(answer)}`,
      };
    }
    if (answer.status >= 200 && answer.status < 300) return { kind: 'sent' };
    return {
      kind: 'failed',
      reason: `signal-cli REST API refused the message: ${refusal(answer)}`,
    };
  },

  checkRequest({ apiBase }) {
    return { method: 'GET', url: `${apiBase}/v1/about`, headers: {} };
  },

  classifyCheck(answer): CheckOutcome {
    const about = signalAboutSchema.safeParse(answer.body).data;
    if (answer.status >= 200 && answer.status < 300 && about) {
      const details = [
        about.version && `version ${about.version}`,
        about.mode && `${about.mode} mode`,
      ]
        .filter(Boolean)
        .join(', ');
      return { connected: true, identity: `signal-cli REST API${details ? ` (${details})` : ''}` };
    }
    return {
      connected: false,
      reason: `signal-cli REST API answered /v1/about with ${refusal(answer)}`,
    };
  },
};
