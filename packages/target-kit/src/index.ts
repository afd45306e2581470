/**
 * @webhook-gateway/target-kit: what a delivery target needs beyond core's plugin API: calls to an
 * outside service, waiting out its rate limits, splitting long answers and sending them part by
 * part, and the start-time credential check.
 */
export { answerText, EMPTY_ANSWER_TEXT } from './answer-text.js';
export * from './classify-answer.js';
export * from './connection-check.js';
export * from './deliver-parts.js';
export * from './options.js';
export * from './require-connection.js';
export * from './rest-call.js';
export * from './retry-after.js';
export { SentParts } from './sent-parts.js';
export * from './service-http.js';
export * from './service-retry.js';
export { splitText } from './split-text.js';
