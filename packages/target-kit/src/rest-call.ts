/**
 * One call to a REST API that a target makes several of per delivery (list, edit, post): its
 * 429s waited out a bounded number of times, every other answer handed back for the caller to
 * read, so a 404 or a 422 can mean something to it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage } from '@webhook-gateway/core';
import { DEFAULT_RETRY_AFTER_MS } from './classify-answer.js';
import type { HttpTargetOptions } from './options.js';
import { parseRetryAfter } from './retry-after.js';
import { callService, redact, type ServiceAnswer, type ServiceRequest } from './service-http.js';

export interface RestCallContext {
  /** The service's name, for messages (`Gitea`). */
  service: string;
  /** `request_timeout_s`, `rate_limit_retries` and `max_retry_after_s` apply. */
  options: HttpTargetOptions;
  /** Aborted when the gateway stops. */
  signal: AbortSignal;
  /** Told about each wait, before it starts (for a log line). */
  onRateLimited?(retryAfterMs: number): void;
}

/**
 * Makes the call; after a 429 waits its `Retry-After` (at most `max_retry_after_s`) and calls
 * again, up to `rate_limit_retries` times. Gives back the first answer that is not a 429; throws
 * when none came (network, timeout, stop) or the service is still rate limiting.
 *
 * @example
 * const answer = await callRest(request, { service: 'Gitea', options, signal });
 * if (answer.status === 404) …
 */
export async function callRest(
  request: ServiceRequest,
  context: RestCallContext,
): Promise<ServiceAnswer> {
  const { options } = context;
  for (let retry = 0; ; retry++) {
    const answer = await callService(request, {
      service: context.service,
      signal: context.signal,
      timeoutMs: options.request_timeout_s * 1000,
    });
    if (answer.status !== 429) return answer;
    const retryAfterMs =
      parseRetryAfter(answer.headers.get('retry-after')) ?? DEFAULT_RETRY_AFTER_MS;
    if (retry >= options.rate_limit_retries) {
      throw new Error(
        `${context.service} is still rate limiting after ${options.rate_limit_retries} retries (asked to wait ${retryAfterMs / 1000} s); the delivery will be retried`,
      );
    }
    context.onRateLimited?.(retryAfterMs);
    await sleep(Math.min(retryAfterMs, options.max_retry_after_s * 1000), undefined, {
      signal: context.signal,
    });
  }
}

/** What a token-bearing JSON call to a forge's REST API needs besides its method and address. */
export interface TokenRestContext extends Omit<RestCallContext, 'onRateLimited'> {
  /** The target making the call (`gitea_review`): named in errors and in the rate-limit warning. */
  target: string;
  /** The `Authorization` header's value (`token …`, `Bearer …`); redacted from every error. */
  authorization: string;
  /** The token itself, redacted from every error. */
  token: string;
  /** Where each wait after a 429 is told (the gateway's logger). */
  log: { warn(fields: Record<string, unknown>, message: string): void };
  /**
   * The `Accept` header, `application/json` unless set: an API that answers some resources in
   * plain text only (Bitbucket Data Center's raw files and diffs) refuses a JSON-only one (406).
   */
  accept?: string;
}

/**
 * A JSON call with a token through `callRest`: the body sent as JSON, each wait after a 429
 * logged, and a call that got no answer thrown naming the target, the token redacted. Any answer
 * is handed back for the caller to read.
 *
 * @example await callTokenRest({ …context, authorization: `token ${token}` }, 'GET', url)
 */
export async function callTokenRest(
  context: TokenRestContext,
  method: ServiceRequest['method'],
  url: string,
  body?: unknown,
): Promise<ServiceAnswer> {
  const request: ServiceRequest = {
    method,
    url,
    headers: {
      authorization: context.authorization,
      accept: context.accept ?? 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
  try {
    return await callRest(request, {
      service: context.service,
      options: context.options,
      signal: context.signal,
      onRateLimited: (retryAfterMs) =>
        context.log.warn(
          { target: context.target, retry_after_ms: retryAfterMs },
          `${context.service} is rate limiting; waiting before calling again`,
        ),
    });
  } catch (error) {
    if (context.signal.aborted) throw error;
    throw new Error(redact(`${context.target}: ${errorMessage(error)}`, [context.token]));
  }
}
