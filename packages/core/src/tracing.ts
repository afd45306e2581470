/**
 * The contract between the gateway and a tracer (`@webhook-gateway/tracing` implements it over
 * OpenTelemetry). Core only ever holds this interface: without `observability.otlp` there is no
 * tracer at all, and no step of a request or an attempt does any tracing work.
 */

/** A span's attributes: flat, as OpenTelemetry keeps them (`undefined` values are left out). */
export type TraceAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** One timed operation of a delivery's trace. */
export interface TraceSpan {
  setAttributes(attributes: TraceAttributes): void;
  addEvent(name: string, attributes?: TraceAttributes): void;
  /** Marks the span failed with the error's message. */
  recordError(error: unknown): void;
  /** Ends the span, now or at `endTime` (ms since epoch). */
  end(endTime?: number): void;
  /** The span's W3C `traceparent`: journaled with a delivery so its attempts join the trace. */
  readonly traceparent: string;
}

export interface TraceSpanOptions {
  /** The parent: a span of this process, or a W3C `traceparent` (journaled, or a request's). */
  parent?: TraceSpan | string;
  attributes?: TraceAttributes;
  /** When it started (ms since epoch), for a span recorded after the fact (the queue wait). */
  startTime?: number;
  /** `server` for the webhook request, `client` for calls out; `internal` otherwise. */
  kind?: 'server' | 'client' | 'internal';
}

/** Makes spans and exports them; a span that cannot be exported is dropped and counted. */
export interface GatewayTracer {
  startSpan(name: string, options?: TraceSpanOptions): TraceSpan;
  /**
   * Called with how many spans were dropped: the export queue full, or a failed export (the
   * collector down, slow, or refusing).
   */
  onDropped(listener: (spans: number) => void): void;
  /** Exports what is buffered (bounded by the exporter's timeout), then stops. */
  shutdown(): Promise<void>;
}
