/**
 * A gateway tracer that exports over OTLP/HTTP in protobuf to `<endpoint>/v1/traces`, as
 * `OTEL_EXPORTER_OTLP_ENDPOINT` works. Spans are batched and sent in the background: an export
 * never waits on a request or an attempt, and a failed one drops its spans with a count.
 */
import {
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Context,
} from '@opentelemetry/api';
import { getNumberFromEnv, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import {
  errorMessage,
  type GatewayTracer,
  type Logger,
  type OtlpSettings,
  type TraceSpan,
  type TraceSpanOptions,
} from '@webhook-gateway/core';
import { BoundedSpanProcessor } from './bounded-span-processor.js';
import { CountingExporter } from './counting-exporter.js';
import { OtelTraceSpan, otelAttributes } from './otel-span.js';

/** How long one export may take before its spans are dropped. */
const EXPORT_TIMEOUT_MS = 10_000;
/** The SDK's default queue bound, which `OTEL_BSP_MAX_QUEUE_SIZE` changes as it does the SDK's. */
const MAX_QUEUE_SIZE = 2048;
/** A failed export or a full queue is logged at most this often (the drop counter counts each). */
const FAILURE_LOG_INTERVAL_MS = 60_000;

const KINDS = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL };

/** The traces URL of a collector's base URL (`http://collector:4318` → `…/v1/traces`). */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/** The batching's bounds; the defaults (and `OTEL_BSP_*`) suit a gateway, tests set them small. */
export interface TracerLimits {
  maxQueueSize?: number;
  maxExportBatchSize?: number;
  scheduledDelayMillis?: number;
  /** How long one export may take before its spans are dropped. */
  exportTimeoutMillis?: number;
}

/**
 * A tracer for `observability.otlp`; the gateway shuts it down when it stops. Every span that
 * never reaches the collector is told to `onDropped` listeners: a full queue, a failed export, an
 * export past its timeout.
 *
 * @example
 * const tracer = createOtlpTracer({ endpoint: 'http://127.0.0.1:4318', headers: {}, sample_ratio: 1 }, { log });
 * const span = tracer.startSpan('webhook receive', { kind: 'server' });
 */
export function createOtlpTracer(
  settings: OtlpSettings,
  options: { log: Logger; serviceVersion?: string; limits?: TracerLimits },
): GatewayTracer {
  const limits = options.limits ?? {};
  const listeners: ((spans: number) => void)[] = [];
  const dropped = (spans: number) => {
    for (const listener of listeners) listener(spans);
  };
  let lastLog = 0;
  const warnAtMostOnceAMinute = (fields: Record<string, unknown>, message: string) => {
    const now = Date.now();
    if (now - lastLog < FAILURE_LOG_INTERVAL_MS) return;
    lastLog = now;
    options.log.warn(fields, message);
  };
  const exporter = new CountingExporter(
    new OTLPTraceExporter({
      url: tracesUrl(settings.endpoint),
      headers: { ...settings.headers },
      timeoutMillis: limits.exportTimeoutMillis ?? EXPORT_TIMEOUT_MS,
    }),
    (error, spans) => {
      // The URL only: the headers may hold the collector's key.
      warnAtMostOnceAMinute(
        { url: tracesUrl(settings.endpoint), spans, err: error ? errorMessage(error) : undefined },
        'could not export traces; their spans are dropped (observability.otlp.endpoint)',
      );
      dropped(spans);
    },
  );
  const maxQueueSize =
    limits.maxQueueSize ?? getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE') ?? MAX_QUEUE_SIZE;
  const processor = new BoundedSpanProcessor(
    exporter,
    {
      maxQueueSize,
      maxExportBatchSize: limits.maxExportBatchSize,
      scheduledDelayMillis: limits.scheduledDelayMillis,
    },
    (spans) => {
      warnAtMostOnceAMinute(
        { url: tracesUrl(settings.endpoint), maxQueueSize },
        'the trace queue is full (the collector is slower than spans come); spans are dropped',
      );
      dropped(spans);
    },
  );
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: 'webhook-gateway',
      // Which process made a span: a receiver and a worker on Redis share one trace.
      'process.pid': process.pid,
      ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
    }),
    // A request's own `traceparent` decides for its trace; the ratio decides for the rest.
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sample_ratio) }),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer('@webhook-gateway/tracing');
  const propagator = new W3CTraceContextPropagator();

  const parentContext = (parent: TraceSpanOptions['parent']): Context => {
    if (parent === undefined) return ROOT_CONTEXT;
    if (parent instanceof OtelTraceSpan) return trace.setSpan(ROOT_CONTEXT, parent.span);
    const traceparent = typeof parent === 'string' ? parent : parent.traceparent;
    return propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter);
  };

  return {
    startSpan(name, spanOptions = {}): TraceSpan {
      const span = tracer.startSpan(
        name,
        {
          kind: KINDS[spanOptions.kind ?? 'internal'],
          attributes: otelAttributes(spanOptions.attributes),
          ...(spanOptions.startTime !== undefined ? { startTime: spanOptions.startTime } : {}),
        },
        parentContext(spanOptions.parent),
      );
      return new OtelTraceSpan(span);
    },
    onDropped(listener) {
      listeners.push(listener);
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}
