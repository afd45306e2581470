/**
 * `@webhook-gateway/core/testing`: helpers for testing a plugin against the real core (a whole
 * gateway on a memory store, a logger that keeps its lines, the checks every `Store` passes,
 * `waitFor` to poll until something happened, `gate` to hold a slow agent until released, a
 * tracer that records the spans it is handed).
 * The stores and targets of this repository test with them too; targets' own helpers are in
 * `@webhook-gateway/target-kit/testing`.
 */
export * from './fake-logger.js';
export * from './gateway-harness.js';
export * from './store-contract.js';
export * from './store-samples.js';
export * from './scheme-harness.js';
export * from './supersede-scenario.js';
export * from './token-shapes.js';
export * from './gate.js';
export * from './wait-for.js';
export * from './recording-tracer.js';
