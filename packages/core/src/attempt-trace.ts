/**
 * An attempt as a span of its delivery's trace: a child of the journaled receive span (so it is
 * one trace across processes and restarts), with the time it waited in the queue before it as a
 * span of its own, its journal write marking it running another (recorded after the fact: the
 * trace context is read by that write), and its outcome as attributes. Its steps are traced
 * inside it (`traceStep`).
 */
import type { DeliveryRecord } from './delivery.js';
import { inTraceScope } from './trace-scope.js';
import type { GatewayTracer } from './tracing.js';

/** How an attempt ended, as far as its span tells (`AttemptResult` in `attempt.ts`). */
interface AttemptEnd {
  status: string;
  error?: string;
}

export async function tracedAttempt<Result extends AttemptEnd>(
  tracer: GatewayTracer,
  record: DeliveryRecord,
  /** When the attempt claimed the row (`markRunning`), before it read its trace context. */
  claimedAt: number,
  attempt: () => Promise<Result>,
): Promise<Result> {
  const startedAt = Date.now();
  const span = tracer.startSpan('delivery attempt', {
    startTime: claimedAt,
    ...(record.traceContext !== undefined ? { parent: record.traceContext } : {}),
    attributes: {
      'webhook_gateway.route': record.route,
      'webhook_gateway.delivery_id': record.deliveryId,
      'webhook_gateway.event': record.event,
      'webhook_gateway.attempt': record.attempts,
    },
  });
  // A first attempt waited from its receipt; a retry from the end of its backoff.
  const readyAt = record.attempts <= 1 ? record.receivedAt : record.nextAttemptAt;
  tracer
    .startSpan('queue wait', { parent: span, startTime: Math.min(readyAt, claimedAt) })
    .end(claimedAt);
  tracer.startSpan('journal running', { parent: span, startTime: claimedAt }).end(startedAt);
  try {
    const result = await inTraceScope(tracer, span, attempt);
    span.setAttributes({ 'webhook_gateway.outcome': result.status });
    if (result.error !== undefined) span.recordError(new Error(result.error));
    return result;
  } catch (error) {
    span.recordError(error);
    throw error;
  } finally {
    span.end();
  }
}
