/** Core's `TraceSpan` over an OpenTelemetry span. */
import { SpanStatusCode, TraceFlags, type Span } from '@opentelemetry/api';
import { errorMessage, type TraceAttributes, type TraceSpan } from '@webhook-gateway/core';

/** The attributes OpenTelemetry keeps: `undefined` values left out. */
export function otelAttributes(
  attributes: TraceAttributes | undefined,
): Record<string, string | number | boolean> | undefined {
  if (attributes === undefined) return undefined;
  const kept: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) kept[key] = value;
  return kept;
}

export class OtelTraceSpan implements TraceSpan {
  constructor(readonly span: Span) {}

  setAttributes(attributes: TraceAttributes): void {
    this.span.setAttributes(otelAttributes(attributes) ?? {});
  }

  addEvent(name: string, attributes?: TraceAttributes): void {
    this.span.addEvent(name, otelAttributes(attributes));
  }

  recordError(error: unknown): void {
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
  }

  end(endTime?: number): void {
    this.span.end(endTime);
  }

  get traceparent(): string {
    const context = this.span.spanContext();
    const sampled = (context.traceFlags & TraceFlags.SAMPLED) !== 0;
    return `00-${context.traceId}-${context.spanId}-${sampled ? '01' : '00'}`;
  }
}
