/**
 * One chat-completions call with retries: 429, 5xx and network errors are tried again with
 * backoff (honouring `Retry-After`); any other 4xx fails at once with the server's message, and
 * running out of retries fails too, so the worker retries the delivery later.
 */
import { z } from 'zod';
import { abortReason, sleep } from './abort.js';
import { chatCompletionSchema, type ChatCompletion, type ChatRequestBody } from './chat-schema.js';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryWaitMs, type RetryPolicy } from './retry.js';

/** Where and how to call a chat-completions server. */
export interface ChatEndpoint {
  /** `agent.base_url`, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set; never logged or put in an error. */
  apiKey?: string;
  signal: AbortSignal;
  retry?: RetryPolicy;
  /** Waits between retries; tests pass one that records instead of waiting. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

type Attempt =
  | { ok: true; completion: ChatCompletion }
  | { ok: false; retryable: boolean; problem: string; retryAfterMs?: number };

/** `{base_url}/chat/completions`, whether or not the base URL ends with a slash. */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/** A URL fit for an error message: without any user:password someone put in it. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

const errorBodySchema = z.union([
  z.object({ error: z.union([z.string(), z.object({ message: z.string() })]) }),
  z.object({ message: z.string() }),
]);

/** The server's own words about an error: OpenAI's `{error: {message}}`, else the text. */
export function serverErrorMessage(text: string): string {
  let message = text.trim();
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      const body = parsed.data;
      message =
        'error' in body
          ? typeof body.error === 'string'
            ? body.error
            : body.error.message
          : body.message;
    }
  } catch {
    // not JSON: the text is the message
  }
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
}

/** What to tell an operator about a status, besides the server's message. */
function statusHint(status: number): string {
  if (status === 401 || status === 403)
    return ' (check the key in the variable named by agent.api_key_env)';
  if (status === 404) return ' (check agent.base_url and agent.model)';
  return '';
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown }).code;
  const text = cause instanceof Error ? cause.message : String(cause);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}

/** The upstream's answer as an attempt's outcome: a completion, or what went wrong. */
function interpretAnswer(
  where: string,
  status: number,
  retryAfter: string | null,
  text: string,
): Attempt {
  if (status < 200 || status >= 300) {
    const message = serverErrorMessage(text);
    const retryAfterMs = parseRetryAfter(retryAfter, Date.now());
    return {
      ok: false,
      retryable: status === 429 || status >= 500,
      problem: `${where} answered ${status}${message ? `: ${message}` : ''}${statusHint(status)}`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const start = text.slice(0, 200);
    return {
      ok: false,
      retryable: false,
      problem: `${where} answered with something that is not JSON: ${start}`,
    };
  }
  const parsed = chatCompletionSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`,
    );
    return {
      ok: false,
      retryable: false,
      problem: `${where} answered with something that is not a chat completion (${issues.join('; ')})`,
    };
  }
  return { ok: true, completion: parsed.data };
}

/** One POST; never throws except when the run is aborted. */
async function attemptOnce(
  url: string,
  body: ChatRequestBody,
  endpoint: ChatEndpoint,
): Promise<Attempt> {
  const where = shownUrl(url);
  let attempt: Attempt;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal: endpoint.signal,
    });
    const text = await response.text();
    attempt = interpretAnswer(where, response.status, response.headers.get('retry-after'), text);
  } catch (error) {
    if (endpoint.signal.aborted) throw abortReason(endpoint.signal);
    attempt = {
      ok: false,
      retryable: true,
      problem: `could not reach ${where}: ${describeNetworkError(error)}`,
    };
  }
  // A server may echo the key it was sent (OpenAI does, in part): it never goes further.
  if (!attempt.ok && endpoint.apiKey)
    attempt.problem = attempt.problem.split(endpoint.apiKey).join('****');
  return attempt;
}

/**
 * Sends one chat-completions request, retrying what a retry can fix.
 *
 * @example
 * const completion = await createChatCompletion({ model: 'gpt-4o', messages }, { baseUrl, signal });
 */
export async function createChatCompletion(
  body: ChatRequestBody,
  endpoint: ChatEndpoint,
): Promise<ChatCompletion> {
  const url = chatCompletionsUrl(endpoint.baseUrl);
  const policy = endpoint.retry ?? DEFAULT_RETRY_POLICY;
  const wait = endpoint.sleep ?? sleep;
  for (let retry = 1; ; retry++) {
    const attempt = await attemptOnce(url, body, endpoint);
    if (attempt.ok) return attempt.completion;
    if (!attempt.retryable) throw new Error(attempt.problem);
    if (retry > policy.retries) {
      throw new Error(`${attempt.problem}; gave up after ${retry} attempts`);
    }
    if (attempt.retryAfterMs !== undefined && attempt.retryAfterMs > policy.maxDelayMs) {
      throw new Error(
        `${attempt.problem}; it asked to retry after ${Math.ceil(attempt.retryAfterMs / 1000)} s, longer than a run waits`,
      );
    }
    await wait(retryWaitMs(retry, attempt.retryAfterMs, policy), endpoint.signal);
  }
}
