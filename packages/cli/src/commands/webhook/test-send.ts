/** Sends `webhook test`'s delivery to the running gateway and reads its answer. */
import { errorMessage } from '@webhook-gateway/core';
import type { TestDelivery } from './test-request.js';

export interface GatewayAnswer {
  status: number;
  body: string;
}

/** No gateway answered at the URL (refused, timed out, not HTTP). */
export class GatewayUnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    super(
      `no gateway answers at ${url} (${causeText(cause)}); start it with "webhook-gateway gateway", or pass its address with --url`,
    );
    this.name = 'GatewayUnreachableError';
  }
}

/** The innermost reason of a failed fetch, e.g. `connect ECONNREFUSED 127.0.0.1:8644`. */
function causeText(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause !== undefined) current = current.cause;
  return errorMessage(current).split('\n')[0] ?? 'unknown error';
}

/** POSTs the delivery; rejects with `GatewayUnreachableError` when nothing answers in time. */
export async function sendTestDelivery(
  delivery: TestDelivery,
  timeoutMs = 10_000,
): Promise<GatewayAnswer> {
  let response: Response;
  let body: string;
  try {
    response = await fetch(delivery.url, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    body = await response.text();
  } catch (error) {
    throw new GatewayUnreachableError(new URL(delivery.url).origin, error);
  }
  return { status: response.status, body };
}

/** What to do about an answer other than 2xx, or undefined for a 2xx. */
export function answerHint(status: number, name: string): string | undefined {
  if (status >= 200 && status < 300) return undefined;
  switch (status) {
    case 401:
      return `the gateway refused the signature: is it serving "${name}" from the same store (same --home)? A static route of that name would win`;
    case 404:
      return `the gateway does not know "${name}": is it running with the same home and store?`;
    case 429:
      return 'the route is rate limited: wait a minute, or raise platforms.webhook.extra.rate_limit';
    default:
      return `the gateway answered ${status}`;
  }
}
