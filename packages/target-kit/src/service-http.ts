/**
 * One HTTP call from a delivery target to an outside service with Node's fetch: bounded in time,
 * the answer parsed, and errors that never show the URL (some services keep a token in the path).
 */

import { traceStep } from '@webhook-gateway/core';

/** A call to make, described as data so request building stays pure and testable. */
export interface ServiceRequest {
  /** PATCH, PUT and DELETE for REST APIs that edit or remove what was posted (a forge's comments). */
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** May hold a secret (Telegram keeps its token here): never log it or put it in an error. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a service answered. */
export interface ServiceAnswer {
  status: number;
  headers: Headers;
  /** The body parsed as JSON, or its raw text when it is not JSON. */
  body: unknown;
  /** The body's text as it came: a file's content stays text even when it reads as JSON. */
  text: string;
}

export interface ServiceCallOptions {
  /** The service's name for messages (`Telegram`). */
  service: string;
  /** Aborted when the gateway stops. */
  signal: AbortSignal;
  timeoutMs: number;
}

function parseBody(text: string): unknown {
  if (text === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A network failure in a few words, from its error code; never the error's own text. */
function networkReason(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : 'network error';
}

/**
 * Makes the call. Throws only when no answer came (network, timeout, stop); any HTTP status is
 * an answer for the caller to classify.
 */
export async function callService(
  request: ServiceRequest,
  options: ServiceCallOptions,
): Promise<ServiceAnswer> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  // The origin only: never the path, which may carry a token.
  const where = new URL(request.url).origin;
  try {
    // A client span of the delivery's trace (with observability.otlp): the origin, never the path.
    return await traceStep(
      `${request.method} ${options.service}`,
      { 'http.request.method': request.method, 'server.address': new URL(where).hostname },
      async (span) => {
        const response = await fetch(request.url, {
          method: request.method,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: request.body }),
          // A redirect means a wrong api_base; following it could send credentials elsewhere.
          redirect: 'manual',
          signal,
        });
        const text = await response.text();
        span?.setAttributes({ 'http.response.status_code': response.status });
        return { status: response.status, headers: response.headers, body: parseBody(text), text };
      },
      'client',
    );
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    if (timeout.aborted) {
      throw new Error(
        `${options.service} (${where}) did not answer within ${options.timeoutMs / 1000} s`,
      );
    }
    throw new Error(`could not reach ${options.service} at ${where}: ${networkReason(error)}`);
  }
}

/** Replaces every occurrence of the secrets in a text with `****`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== '') out = out.split(secret).join('****');
  return out;
}

/** A short, safe excerpt of a body that was not what the service documents. */
export function bodyExcerpt(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine || '(empty body)';
}
