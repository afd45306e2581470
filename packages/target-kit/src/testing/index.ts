/**
 * `@webhook-gateway/target-kit/testing`: helpers for testing a delivery target without a gateway
 * (a fake outside HTTP service on 127.0.0.1, over TLS with a certificate this process trusts; the
 * `DeliverRequest` a target receives; reviews of one pull request across pushes with a findings
 * journal) and with one (a signed gateway, or one with a command route). For a whole gateway and a
 * logger that keeps its lines, see `@webhook-gateway/core/testing`.
 */
export * from './command-gateway.js';
export * from './deliver-request.js';
export * from './fake-service.js';
export * from './findings-reviews.js';
export * from './git-repository.js';
export * from './loopback-certificate.js';
export * from './signed-gateway.js';
export * from './trust-certificate.js';
