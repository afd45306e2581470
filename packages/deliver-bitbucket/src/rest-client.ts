/**
 * One call to a Bitbucket REST API, Cloud's or Data Center's, with `Authorization: Bearer …`
 * through target-kit's `callTokenRest` (429s waited out): a redirect followed on the API's own
 * origin only, and any other failure thrown as a `BitbucketApiError` that says what to fix and
 * never shows the token.
 */
import type { Logger } from '@webhook-gateway/core';
import {
  bodyExcerpt,
  callTokenRest,
  redact,
  serverErrorReason,
  type HttpTargetOptions,
  type ServiceAnswer,
  type ServiceRequest,
} from '@webhook-gateway/target-kit';
import type { BitbucketConnection } from './settings.js';

/** A failed call: the HTTP status, for callers that read one (a refused inline comment). */
export class BitbucketApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'BitbucketApiError';
    this.status = status;
  }
}

/** True for a 404: what Bitbucket answers for a commit or file it does not know. */
export function isNotFound(error: unknown): boolean {
  return error instanceof BitbucketApiError && error.status === 404;
}

export interface BitbucketCallContext {
  connection: BitbucketConnection;
  options: HttpTargetOptions;
  signal: AbortSignal;
  log: Logger;
  /** The target, first in every error (`bitbucket_comment`). */
  target: string;
}

/** What tells one Bitbucket's answers from the other's. */
export interface BitbucketDialect {
  /** Its name in messages: `Bitbucket`, `Bitbucket Data Center`. */
  service: string;
  /** The key path of its token, named after a 401. */
  tokenKey: string;
  /** Its own words for a refusal, when the body has them. */
  message(body: unknown): string | undefined;
}

function hint(status: number, dialect: BitbucketDialect): string {
  if (status === 401) return ` (check ${dialect.tokenKey})`;
  if (status === 403) return " (the token may not write to this repository's pull requests)";
  if (status === 404) {
    return " (check the route's deliver_extra.repo and pr_number, and that the token can see the repository)";
  }
  return '';
}

/** True for an address on the API's own origin: the token goes only where it was configured to. */
export function sameOrigin(url: string, apiBase: string): boolean {
  return new URL(url, apiBase).origin === new URL(apiBase).origin;
}

/** A call under `connection.apiBase`; `accept` for resources answered in plain text. */
export type BitbucketCall = (
  method: ServiceRequest['method'],
  path: string,
  body?: unknown,
  how?: { url?: string; accept?: string },
) => Promise<ServiceAnswer>;

/** The call, bound to one connection, dialect and delivery. */
export function bitbucketCall(
  context: BitbucketCallContext,
  dialect: BitbucketDialect,
): BitbucketCall {
  const { connection } = context;
  const rest = {
    service: dialect.service,
    target: context.target,
    options: context.options,
    signal: context.signal,
    log: context.log,
    authorization: `Bearer ${connection.token}`,
    token: connection.token,
  };
  const call: BitbucketCall = async (method, path, body, how = {}) => {
    const url = how.url ?? `${connection.apiBase}${path}`;
    const accept = how.accept === undefined ? {} : { accept: how.accept };
    const answer = await callTokenRest({ ...rest, ...accept }, method, url, body);
    if (answer.status >= 200 && answer.status < 300) return answer;
    // Cloud's diff endpoint answers with a redirect to the repository's diff: followed on the
    // API's own origin only.
    const location = answer.headers.get('location');
    if (answer.status >= 300 && answer.status < 400 && location && method === 'GET') {
      if (sameOrigin(location, connection.apiBase)) {
        return call(method, path, body, {
          ...how,
          url: new URL(location, connection.apiBase).toString(),
        });
      }
    }
    const reason =
      answer.status >= 500
        ? serverErrorReason(dialect.service, answer.status)
        : `${dialect.service} answered HTTP ${answer.status}: ${dialect.message(answer.body) ?? bodyExcerpt(answer.body)}${hint(answer.status, dialect)}`;
    throw new BitbucketApiError(
      redact(`${context.target}: ${method} ${path} failed: ${reason}`, [connection.token]),
      answer.status,
    );
  };
  return call;
}
