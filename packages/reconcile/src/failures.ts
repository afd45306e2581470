/**
 * Why a route could not be reconciled, in words that say what to do. A failure is reported (log,
 * table, metrics) and never stops the gateway; a rate limit says when to try again.
 */

export type ReconcileFailureKind =
  | 'cli-missing'
  | 'not-authenticated'
  | 'hook-not-found'
  | 'no-admin-rights'
  | 'rate-limited'
  | 'forge-error';

export class ReconcileFailure extends Error {
  constructor(
    readonly kind: ReconcileFailureKind,
    message: string,
    /** For `rate-limited`: how long the forge asked to wait (ms). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ReconcileFailure';
  }
}

/** An HTTP answer of the forge's API, as the CLI printed it. */
export interface ApiResponse {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

/**
 * What a failure message names: the CLI (or "the App"), its config key, the hook and the route's
 * key path.
 */
export interface FailureContext {
  cli: string;
  /** `platforms.forge`, `platforms.altforge` or `platforms.forge.app`. */
  settingsKey: string;
  /** `repos/octo/repo/hooks/12` (`app/hook` for the App's), as the forge's API names it. */
  hook: string;
  /** `platforms.webhook.extra.routes.<route>.reconcile`. */
  keyPath: string;
  /** The right a token needs to read and redeliver the hook's deliveries. */
  right: string;
  /** What to do when the forge refuses the credentials; by default, log the CLI in or set a token. */
  signIn?: string;
}

const DEFAULT_RETRY_AFTER_MS = 60_000;

/** How long a rate-limited answer asks to wait: `Retry-After`, else the limit's reset time. */
export function retryAfterMs(response: ApiResponse, now: number): number | undefined {
  const retryAfter = response.headers['retry-after'];
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (response.headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(response.headers['x-ratelimit-reset']);
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
  }
  if (response.status === 429) return DEFAULT_RETRY_AFTER_MS;
  return undefined;
}

/** The forge's own `message` field of an error answer, if it has one. */
function forgeMessage(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed) {
      const message = parsed.message;
      if (typeof message === 'string') return message;
    }
  } catch {
    // not JSON: the text itself, shortened
  }
  return body.trim().slice(0, 200);
}

/** The failure an HTTP answer of 400 or more stands for. */
export function failureOfResponse(
  response: ApiResponse,
  context: FailureContext,
  now: number,
): ReconcileFailure {
  const said = forgeMessage(response.body);
  const wait = retryAfterMs(response, now);
  if (wait !== undefined && (response.status === 403 || response.status === 429)) {
    return new ReconcileFailure(
      'rate-limited',
      `the forge rate-limited ${context.cli} (HTTP ${response.status}: ${said}); the next pass waits ${Math.ceil(wait / 1000)} s`,
      wait,
    );
  }
  if (response.status === 401) {
    return new ReconcileFailure(
      'not-authenticated',
      `${context.cli} is not authenticated (HTTP 401: ${said}); ${context.signIn ?? `run "${context.cli} auth login" or set ${context.settingsKey}.token`}`,
    );
  }
  if (response.status === 403) {
    return new ReconcileFailure(
      'no-admin-rights',
      `the token may not read or redeliver ${context.hook}'s deliveries (HTTP 403: ${said}); it needs ${context.right}`,
    );
  }
  if (response.status === 404) {
    return new ReconcileFailure(
      'hook-not-found',
      `${context.hook} was not found (HTTP 404: ${said}); check ${context.keyPath}, and that the token has ${context.right} (without it the forge answers not found)`,
    );
  }
  return new ReconcileFailure(
    'forge-error',
    `the forge answered HTTP ${response.status} for ${context.hook}: ${said}`,
  );
}
