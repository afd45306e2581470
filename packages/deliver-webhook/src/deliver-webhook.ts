/**
 * The `webhook` target: the answer goes into the journal's outbox, and the sender POSTs it,
 * signed and retried as lifecycle events are. Resolving means the answer is kept until it is
 * sent or expires: a receiver that is down or slow never fails or holds the delivery.
 */
import type { DeliverRequest, Store } from '@webhook-gateway/core';
import { answerMessage } from './answer-message.js';
import { endpointOf } from './endpoint-name.js';
import type { WebhookTargetSettings } from './settings.js';

export async function deliverWebhook(
  request: DeliverRequest,
  settings: WebhookTargetSettings,
  store: Store,
  now = Date.now(),
): Promise<void> {
  const endpoint = endpointOf(request.extra, settings);
  if (!endpoint.ok) throw Object.assign(new Error(endpoint.reason), { retryable: false });
  await store.enqueueOutbox([answerMessage(request, endpoint.name, now)]);
  request.log.info(
    { target: 'webhook', endpoint: endpoint.name },
    'answer queued for its endpoint',
  );
}
