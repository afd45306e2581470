/**
 * OpenTelemetry traces for webhook-gateway. The CLI imports this package only when
 * `observability.otlp` is set, so a gateway without it never loads the SDK.
 */
export { createOtlpTracer, tracesUrl } from './otlp-tracer.js';
