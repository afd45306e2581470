/**
 * One call to the forge's REST API for the App (with a JWT, an installation token, or, for the
 * manifest conversion, nothing): its JSON answer checked with a zod schema. A failure names the
 * endpoint and the forge's message, never the credentials sent.
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

/** Makes the call; throws an `AppApiError` naming `METHOD url` when it fails or answers oddly. */
export async function callAppApi<T>(call: AppApiCall<T>): Promise<T> {
  const { apiUrl, method, path, authorization, schema, body } = call;
  const what = `${method} ${apiUrl}${path}`;
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
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    throw new AppApiError(`${what} failed: ${String(cause ?? error)}`, 0);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const forgeMessage = messageSchema.safeParse(json).data?.message ?? response.statusText;
    throw new AppApiError(`${what}: HTTP ${response.status}: ${forgeMessage}`, response.status);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // zod's message names the paths and the types expected, not the values (a key, a secret).
    throw new AppApiError(`${what} answered an unexpected shape: ${parsed.error.message}`, 502);
  }
  return parsed.data;
}
