/**
 * One POST of an outbox message as a client span of its delivery's trace (with
 * `observability.otlp`): a child of the trace context the message was written with, so the
 * answer and the lifecycle events a delivery sent are in its trace. It names the receiver's host
 * alone, never the URL's path, query or credentials (a path may hold a token), nor the secret.
 */
import type { GatewayTracer, OutboxMessage } from '@webhook-gateway/core';
import type { PostOutcome } from './post-outcome.js';

/** What the sender did with the message after this POST, as the span tells it. */
const SETTLEMENT_OF: Readonly<Record<PostOutcome['kind'], string>> = {
  sent: 'sent',
  retry: 'retry',
  give_up: 'dropped',
};

/** Runs `post` in an `outbox send` span; the span fails with the reason unless it was sent. */
export async function tracedPost(
  tracer: GatewayTracer,
  message: OutboxMessage,
  url: string,
  post: () => Promise<PostOutcome>,
): Promise<PostOutcome> {
  const span = tracer.startSpan('outbox send', {
    kind: 'client',
    ...(message.traceContext !== undefined ? { parent: message.traceContext } : {}),
    attributes: {
      'http.request.method': 'POST',
      'server.address': new URL(url).hostname,
      'webhook_gateway.outbox.destination': message.destination,
      'webhook_gateway.outbox.message_id': message.id,
      // Failed tries so far, plus this one (a deferral is not a try).
      'webhook_gateway.attempt': message.attempts + 1,
    },
  });
  try {
    const outcome = await post();
    span.setAttributes({
      'http.response.status_code': outcome.status,
      'webhook_gateway.outcome': SETTLEMENT_OF[outcome.kind],
    });
    if (outcome.kind !== 'sent') span.recordError(new Error(outcome.reason));
    return outcome;
  } catch (error) {
    span.recordError(error);
    throw error;
  } finally {
    span.end();
  }
}
