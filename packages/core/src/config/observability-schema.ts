/**
 * `observability:`: where the gateway sends its traces. Absent `otlp` means no tracing at all:
 * the OpenTelemetry SDK is never loaded.
 */
import { z } from 'zod';

/** An HTTP header name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const otlpSchema = z.strictObject({
  /** The collector's base URL; traces go to `<endpoint>/v1/traces`. */
  endpoint: z.url({
    protocol: /^https?$/,
    error: 'expected the collector\'s http(s) base URL, e.g. "http://collector:4318"',
  }),
  /** Sent with each export (a collector's API key): never logged, never in a span. */
  headers: z
    .record(
      z.string(),
      z.string().regex(/^[^\r\n\0]*$/, 'a header value cannot hold a line break or NUL'),
    )
    .superRefine((headers, ctx) => {
      // Checked here rather than as the record's key schema, whose error would not say why.
      for (const name of Object.keys(headers)) {
        if (!HEADER_NAME.test(name))
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'expected an HTTP header name (letters, digits, - and _)',
          });
      }
    })
    .default({}),
  /** The share of deliveries traced (a request's own `traceparent` decides for its trace). */
  sample_ratio: z.number().min(0).max(1).default(1),
});

export const observabilitySchema = z.strictObject({ otlp: otlpSchema.optional() });

/** `observability.otlp`, validated. */
export type OtlpSettings = z.infer<typeof otlpSchema>;
