/**
 * The OTLP exporter with its failures counted: a collector that is down, slow (past the export
 * timeout) or refusing loses those spans, never a delivery's time, and the count reaches
 * `/metrics` through the gateway's `spansDropped` hook.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

export class CountingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    /** Told of each failed export and how many spans it dropped. */
    private readonly onFailure: (error: Error | undefined, spans: number) => void,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) this.onFailure(result.error, spans.length);
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
