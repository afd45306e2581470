/**
 * @webhook-gateway/target-kit: what a delivery target needs beyond core's plugin API: calls to an
 * outside service, waiting out its rate limits, splitting long answers and resuming them part by
 * part.
 */
export * from './retry-after.js';
export { SentParts } from './sent-parts.js';
export * from './service-http.js';
export * from './service-retry.js';
export { splitText } from './split-text.js';
