/**
 * Sending a split answer part by part, in order: each part waits out the service's 429s, and a
 * retry of the delivery resumes at the part that failed.
 */
import { errorMessage, type DeliverRequest } from '@webhook-gateway/core';
import type { HttpTargetOptions } from './options.js';
import type { SentParts } from './sent-parts.js';
import { callService, redact, type ServiceAnswer, type ServiceRequest } from './service-http.js';
import { sendWithRateLimitRetries, type SendOutcome } from './service-retry.js';

/** What a target's deliver tap keeps between deliveries. */
export interface DeliverContext {
  options: HttpTargetOptions;
  /** One per plugin: which parts of which answers were already sent. */
  sentParts: SentParts;
}

/** One answer to send, as the target's own code describes it. */
export interface PartsDelivery {
  /** The target name, for logs and errors (`messenger_a`, `sms`). */
  target: string;
  /** The service's name, for people (`Telegram`). */
  service: string;
  /** The answer's parts, in order, each within the service's limit. */
  parts: readonly string[];
  /** Where the parts go (a chat id, a phone number). */
  to: string;
  /** What the service calls `to`, for errors (`chat`, `channel`); none for a phone number. */
  toNoun?: string;
  /** The verb for errors (`sending`, `texting`). */
  verb: string;
  /** The call that sends one part (pure). */
  request(part: string): ServiceRequest;
  /** Reads the service's answer to that call. */
  classify(answer: ServiceAnswer): SendOutcome;
  /** Masked out of every error (the token). */
  secrets: readonly string[];
}

/**
 * Sends every part not sent yet. Throws on failure so the worker retries; the error says which
 * target, recipient and part failed and the service's own reason, never a secret.
 *
 * @example
 * await deliverParts(request, { target: 'sms', service: 'Twilio', verb: 'texting', to, parts,
 *   request: (body) => messageRequest(credentials, { to, from, body }),
 *   classify: classifyMessageAnswer, secrets: [credentials.authToken] }, context);
 */
export async function deliverParts(
  request: DeliverRequest,
  delivery: PartsDelivery,
  context: DeliverContext,
): Promise<void> {
  const { target, service, parts } = delivery;
  const progressKey = `${target}\u0000${request.delivery.id}\u0000${delivery.to}`;
  const { options } = context;
  const first = context.sentParts.sentCount(progressKey);
  if (first > 0)
    request.log.info({ target, resumed_at_part: first + 1 }, 'resuming a split answer');

  for (let index = first; index < parts.length; index++) {
    const part = parts[index] ?? '';
    try {
      await sendWithRateLimitRetries(
        async () => {
          const answer = await callService(delivery.request(part), {
            service,
            signal: request.signal,
            timeoutMs: options.request_timeout_s * 1000,
          });
          const outcome = delivery.classify(answer);
          if (outcome.kind === 'rate_limited') {
            request.log.warn(
              { target, retry_after_ms: outcome.retryAfterMs },
              `${service} is rate limiting; waiting before sending again`,
            );
          }
          return outcome;
        },
        { retries: options.rate_limit_retries, maxDelayMs: options.max_retry_after_s * 1000 },
        { service, signal: request.signal },
      );
    } catch (error) {
      if (request.signal.aborted) throw error;
      const which = parts.length > 1 ? ` part ${index + 1} of ${parts.length}` : '';
      const to = delivery.toNoun === undefined ? delivery.to : `${delivery.toNoun} ${delivery.to}`;
      throw new Error(
        redact(
          `${target} (${service}): ${delivery.verb}${which} to ${to} failed: ${errorMessage(error)}`,
          delivery.secrets,
        ),
      );
    }
    context.sentParts.record(progressKey, index + 1);
  }
  context.sentParts.forget(progressKey);
  request.log.debug({ target, parts: parts.length }, `sent to ${service}`);
}
