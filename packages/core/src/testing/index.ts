/**
 * `@webhook-gateway/core/testing`: helpers for testing a plugin against the real core (a whole
 * gateway on a memory store, a fake outside HTTP service on 127.0.0.1, a logger that keeps its
 * lines, a target's `DeliverRequest`, the checks every `Store` passes). The targets and stores of
 * this repository test with them too.
 */
export * from './deliver-request.js';
export * from './fake-logger.js';
export * from './fake-service.js';
export * from './gateway-harness.js';
export * from './store-contract.js';
export * from './store-samples.js';
