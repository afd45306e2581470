/**
 * One call to the forge's REST API for the App (with a JWT, an installation token, or, for the
 * manifest conversion, nothing): its JSON answer checked with a zod schema, or (`sendAppApi`) the
 * answer as sent. A failure names the endpoint and the forge's message, never the credentials
 * sent.
 */
import { fetch } from 'undici';
import { z } from 'zod';

/** A call to the App API that failed: the forge's status and message. */
export class AppApiError extends Error {
  /** 401, 404 and 422 cannot succeed by asking again; 5xx and 429 may. */
  readonly retryable: boolean;
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'AppApiError';
    this.retryable = status === 429 || status >= 500 || status === 0;
  }
}

const messageSchema = z.object({ message: z.string() }).partial();

export interface AppApiCall<T> {
  /** The REST API base, without a trailing slash. */
  apiUrl: string;
  method: string;
  /** From the base: `/app/installations`. */
  path: string;
  /** The `Authorization` header; none for the manifest conversion. */
  authorization?: string;
  schema: z.ZodType<T>;
  /** Sent as JSON. */
  body?: unknown;
}

/** An answer of the App API as the forge sent it. */
export interface AppApiAnswer {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

/**
 * Sends the request and returns the answer whatever its status; throws an `AppApiError`
 * (status 0) naming `METHOD url` only when no answer came.
 */
export async function sendAppApi(
  call: Omit<AppApiCall<unknown>, 'schema'> & { signal?: AbortSignal },
): Promise<AppApiAnswer & { statusText: string }> {
  const { apiUrl, method, path, authorization, body } = call;
  const timeout = AbortSignal.timeout(30_000);
  let response;
  try {
    response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        ...(authorization === undefined ? {} : { authorization }),
        'x-github-api-version': '2022-11-28',
        'user-agent': 'webhook-gateway',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
    });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    throw new AppApiError(`${method} ${apiUrl}${path} failed: ${String(cause ?? error)}`, 0);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name.toLowerCase()] = value;
  return {
    status: response.status,
    statusText: response.statusText,
    headers,
    body: await response.text(),
  };
}

/** Makes the call; throws an `AppApiError` naming `METHOD url` when it fails or answers oddly. */
export async function callAppApi<T>(call: AppApiCall<T>): Promise<T> {
  const { apiUrl, method, path, schema } = call;
  const what = `${method} ${apiUrl}${path}`;
  const answer = await sendAppApi(call);
  let json: unknown;
  try {
    json = answer.body === '' ? null : JSON.parse(answer.body);
  } catch {
    json = undefined;
  }
  if (answer.status < 200 || answer.status >= 300) {
    const forgeMessage = messageSchema.safeParse(json).data?.message ?? answer.statusText;
    throw new AppApiError(`${what}: HTTP ${answer.status}: ${forgeMessage}`, answer.status);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // zod's message names the paths and the types expected, not the values (a key, a secret).
    throw new AppApiError(`${what} answered an unexpected shape: ${parsed.error.message}`, 502);
  }
  return parsed.data;
}
