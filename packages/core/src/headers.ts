/** The header names of `docs/contract.md#headers`, canonical first, then the services' own. */
import type { IncomingHttpHeaders } from 'node:http';
import type { JsonObject } from './template.js';

export const FORGE_EVENT_HEADERS = ['x-forge-event', 'x-github-event'] as const;
export const FORGE_SIGNATURE_HEADERS = ['x-forge-signature-256', 'x-hub-signature-256'] as const;
export const FORGE_DELIVERY_HEADERS = ['x-forge-delivery', 'x-github-delivery'] as const;
export const ALTFORGE_TOKEN_HEADERS = ['x-altforge-token', 'x-gitlab-token'] as const;
export const ALTFORGE_EVENT_HEADERS = ['x-altforge-event', 'x-gitlab-event'] as const;
export const ALTFORGE_DELIVERY_HEADERS = ['idempotency-key', 'x-gitlab-event-uuid'] as const;
export const FALLBACK_DELIVERY_HEADER = 'x-request-id';

/**
 * The bytes a header value arrived as. Node decodes header bytes as latin-1, so a secret a sender
 * put on the wire as UTF-8 must be compared as bytes: these against the secret's UTF-8 bytes.
 */
export function headerBytes(value: string): Buffer {
  return Buffer.from(value, 'latin1');
}

/** The first non-empty value among headers (node lower-cases names). */
export function firstHeader(
  headers: IncomingHttpHeaders,
  names: readonly string[],
): string | undefined {
  for (const name of names) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** The event type: forge header, else altforge header, else the payload's `event_type`, else `unknown`. */
export function eventTypeOf(headers: IncomingHttpHeaders, payload: JsonObject): string {
  return (
    firstHeader(headers, FORGE_EVENT_HEADERS) ??
    firstHeader(headers, ALTFORGE_EVENT_HEADERS) ??
    (typeof payload.event_type === 'string' && payload.event_type !== ''
      ? payload.event_type
      : 'unknown')
  );
}

let lastTimestamp = 0;

/** A millisecond timestamp that is new on every call, for deliveries without an id. */
function freshTimestampId(now: number): string {
  lastTimestamp = Math.max(now, lastTimestamp + 1);
  return String(lastTimestamp);
}

/** Delivery id: forge header, else the altforge ids, else `X-Request-ID`, else a fresh timestamp. */
export function deliveryIdOf(headers: IncomingHttpHeaders, now: number): string {
  return (
    firstHeader(headers, FORGE_DELIVERY_HEADERS) ??
    firstHeader(headers, ALTFORGE_DELIVERY_HEADERS) ??
    firstHeader(headers, [FALLBACK_DELIVERY_HEADER]) ??
    freshTimestampId(now)
  );
}

/** Headers the journal keeps: what identifies the delivery and its sender, never a token. */
const KEPT_HEADERS = [
  ...FORGE_EVENT_HEADERS,
  ...FORGE_DELIVERY_HEADERS,
  ...ALTFORGE_EVENT_HEADERS,
  ...ALTFORGE_DELIVERY_HEADERS,
  FALLBACK_DELIVERY_HEADER,
  'x-github-hook-id',
  'x-github-hook-installation-target-type',
  'x-github-hook-installation-target-id',
  'x-gitlab-instance',
  'x-gitlab-webhook-uuid',
  'user-agent',
  'content-type',
  'content-length',
];

export function keptHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (value !== undefined) kept[name] = value.slice(0, 512);
  }
  return kept;
}
