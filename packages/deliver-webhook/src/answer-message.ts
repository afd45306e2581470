/**
 * The outbox message of the `webhook` target: the route's answer as a Standard Webhooks payload
 * (`type: delivery.answer`), to the route's endpoint (`docs/contract.md#the-webhook-targets-answer`).
 */
import { OUTBOX_TTL_MS, type DeliverRequest, type NewOutboxMessage } from '@webhook-gateway/core';
import { endpointDestination } from './destinations.js';

/**
 * The message of one attempt's answer. Its id is the row's and its seq's: the same attempt
 * delivered again (after a crash before the journal said `delivered`) adds nothing new while
 * the first is unsent; a replay (a new seq) sends again.
 */
export function answerMessage(
  request: Pick<DeliverRequest, 'answer' | 'summary' | 'lineComments' | 'delivery'>,
  endpoint: string,
  now: number,
): NewOutboxMessage {
  const { delivery } = request;
  const body = {
    type: 'delivery.answer',
    timestamp: new Date(now).toISOString(),
    data: {
      route: delivery.route,
      journal_id: delivery.id,
      delivery_id: delivery.deliveryId,
      sender_event: delivery.event,
      action: delivery.action,
      attempt: delivery.attempts,
      answer: request.answer,
      summary: request.summary,
      line_comments: request.lineComments,
    },
  };
  return {
    id: `msg_answer_${delivery.id}_${delivery.seq}`,
    destination: endpointDestination(endpoint),
    body: JSON.stringify(body),
    createdAt: now,
    expiresAt: now + OUTBOX_TTL_MS,
    // Its POSTs join the delivery's trace.
    ...(delivery.traceContext !== undefined ? { traceContext: delivery.traceContext } : {}),
  };
}
