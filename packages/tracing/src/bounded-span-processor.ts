/**
 * The SDK's BatchSpanProcessor behind a queue bound we keep ourselves, so a span dropped because
 * the queue is full is counted: the SDK drops those silently (a debug line, no count). The bound
 * is the SDK's own `maxQueueSize`; we count a span as queued from its end until the exporter is
 * handed it, which is never less than the SDK's queue, so the SDK never reaches its limit and
 * drops nothing we did not count. Ending a span stays synchronous: it queues or drops, never waits.
 */
import { TraceFlags, type Context } from '@opentelemetry/api';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export interface BatchLimits {
  /** Spans waiting for an export; past it, ended spans are dropped (and counted). */
  maxQueueSize: number;
  maxExportBatchSize?: number | undefined;
  scheduledDelayMillis?: number | undefined;
}

export class BoundedSpanProcessor implements SpanProcessor {
  private readonly batch: BatchSpanProcessor;
  /** Ended, sampled spans the exporter has not been handed yet. */
  private queued = 0;
  private stopped = false;

  constructor(
    exporter: SpanExporter,
    private readonly limits: BatchLimits,
    /** Told of each span dropped because the queue was full. */
    private readonly onQueueFull: (spans: number) => void,
  ) {
    const handedOver: SpanExporter = {
      export: (spans, resultCallback) => {
        this.queued -= spans.length;
        exporter.export(spans, resultCallback);
      },
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
    this.batch = new BatchSpanProcessor(handedOver, { ...limits });
  }

  onStart(span: Span, parentContext: Context): void {
    this.batch.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    // The SDK's batch processor ignores these two without dropping anything.
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.queued >= this.limits.maxQueueSize) {
      this.onQueueFull(1);
      return;
    }
    this.queued++;
    this.batch.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.batch.forceFlush();
  }

  shutdown(): Promise<void> {
    this.stopped = true;
    return this.batch.shutdown();
  }
}
