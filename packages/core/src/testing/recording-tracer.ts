/**
 * A tracer that keeps what it is handed, for tests of code that makes spans: each span's name,
 * its options (parent, attributes, kind) and the calls made on it, in order.
 */
import type { GatewayTracer, TraceAttributes, TraceSpan, TraceSpanOptions } from '../tracing.js';

/** One span as the code under test made it. */
export interface RecordedSpan {
  name: string;
  options: TraceSpanOptions;
  /** `['attributes', {…}]`, `['event', name, {…}]`, `['error', message]`, `['end']`, in order. */
  calls: unknown[][];
}

/**
 * @example
 * const { tracer, seen } = recordingTracer();
 * await codeUnderTest(tracer);
 * expect(seen.map((span) => span.name)).toEqual(['outbox send']);
 */
export function recordingTracer(): { tracer: GatewayTracer; seen: RecordedSpan[] } {
  const seen: RecordedSpan[] = [];
  const tracer: GatewayTracer = {
    startSpan(name, options = {}) {
      const calls: unknown[][] = [];
      seen.push({ name, options, calls });
      const span: TraceSpan = {
        setAttributes: (attributes: TraceAttributes) => calls.push(['attributes', attributes]),
        addEvent: (event: string, attributes?: TraceAttributes) =>
          calls.push(['event', event, attributes]),
        recordError: (error: unknown) => calls.push(['error', (error as Error).message]),
        end: () => calls.push(['end']),
        traceparent: `00-${'1'.repeat(32)}-${String(seen.length).padStart(16, '0')}-01`,
      };
      return span;
    },
    onDropped: () => undefined,
    shutdown: () => Promise.resolve(),
  };
  return { tracer, seen };
}
