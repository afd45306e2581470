/**
 * `@webhook-gateway/deliver-webhook/delivery`: the code behind the `webhook` target and the
 * outbox's sender, for programs that reuse it. The plugin loads the POST (undici) at its first send.
 */
export { deliverWebhook } from './deliver-webhook.js';
export { answerMessage } from './answer-message.js';
export { OutboxSender, type OutboxSenderOptions, type Post } from './outbox-sender.js';
export { SignedPoster, type SignedPost } from './post-signed.js';
export { outcomeOfAnswer, retryDelayMs, type PostOutcome } from './post-outcome.js';
export { destinationsOf, endpointDestination, type Destination } from './destinations.js';
