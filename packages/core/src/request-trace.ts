/**
 * The span of one `POST /webhooks/<route>`: a child of the request's own W3C `traceparent` when it
 * carries a valid one, each check of `docs/contract.md#the-order-of-checks` an event on it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestOutcome } from './hooks.js';
import type { GatewayTracer, TraceSpan } from './tracing.js';

/** version-traceid-parentid-flags, the IDs not all zero (W3C Trace Context, level 1). */
const TRACEPARENT = /^[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The request's `traceparent` when it is well formed (a malformed one starts a new trace). */
function incomingTraceparent(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.traceparent;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  return text !== undefined && TRACEPARENT.test(text) && !text.startsWith('ff') ? text : undefined;
}

export function startRequestSpan(
  tracer: GatewayTracer,
  route: string,
  headers: IncomingHttpHeaders,
): TraceSpan {
  const parent = incomingTraceparent(headers);
  return tracer.startSpan('webhook receive', {
    kind: 'server',
    ...(parent !== undefined ? { parent } : {}),
    attributes: {
      'http.request.method': 'POST',
      'http.route': '/webhooks/:route',
      'webhook_gateway.route': route,
    },
  });
}

/** Ends the request's span with its answer. */
export function endRequestSpan(span: TraceSpan, outcome: RequestOutcome, status: number): void {
  span.setAttributes({
    'http.response.status_code': status,
    'webhook_gateway.request.outcome': outcome,
  });
  if (status >= 500) span.recordError(new Error(`answered ${status} (${outcome})`));
  span.end();
}
