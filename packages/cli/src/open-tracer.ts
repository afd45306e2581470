/**
 * The tracer of `observability.otlp`, or none. The OpenTelemetry SDK (`@webhook-gateway/tracing`)
 * is imported only when the endpoint is set, so a gateway without it neither loads nor runs any
 * of it.
 */
import { createRequire } from 'node:module';
import type { GatewayConfig, GatewayTracer, Logger } from '@webhook-gateway/core';

export async function openTracer(
  config: GatewayConfig,
  log: Logger,
): Promise<GatewayTracer | undefined> {
  const otlp = config.observability.otlp;
  if (otlp === undefined) return undefined;
  const { createOtlpTracer } = await import('@webhook-gateway/tracing');
  const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
  return createOtlpTracer(otlp, { log, serviceVersion: version });
}
