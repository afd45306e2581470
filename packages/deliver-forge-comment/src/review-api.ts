/**
 * The review context's reads through the forge CLIs' `api` commands (`gh api`, `glab api`): the
 * answer as text (a diff, a raw file, JSON), or a failure that says what kind it was, so the
 * caller can fall back (a diff the forge refuses as too large), treat it as missing (404), or
 * fail the attempt (no CLI, no credentials).
 */
import { traceCliRun } from './cli-span.js';
import { stderrSummary } from './failure.js';
import type { ApiClient } from './forge-api.js';

/** How much one answer may hold: a diff past it is "too large", like a forge's 406. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** A review read that failed; `status` is the HTTP status the CLI reported, when it did. */
export class ReviewApiError extends Error {
  readonly status: number | undefined;
  /** The forge refused the answer as too large (406, 422), or it passed `MAX_ANSWER_BYTES`. */
  readonly tooLarge: boolean;
  readonly timedOut: boolean;
  /** The CLI could not be started, has no valid credentials, or the attempt was stopped. */
  readonly unusable: boolean;
  constructor(
    message: string,
    facts: { status?: number; tooLarge?: boolean; timedOut?: boolean; unusable?: boolean },
  ) {
    super(message);
    this.name = 'ReviewApiError';
    this.status = facts.status;
    this.tooLarge = facts.tooLarge ?? false;
    this.timedOut = facts.timedOut ?? false;
    this.unusable = facts.unusable ?? false;
  }

  get notFound(): boolean {
    return this.status === 404;
  }
}

/** `(HTTP 406)`: how gh and glab end an error of the API. */
const HTTP_STATUS = /\(HTTP (\d{3})\)/;

/**
 * `<cli> api <args…>`: its stdout, byte for byte (a diff's last newline included), or a
 * `ReviewApiError`.
 */
export async function readApi(
  client: ApiClient,
  args: readonly string[],
  signal: AbortSignal,
): Promise<string> {
  const what = `${client.cli} api ${args.find((arg) => !arg.startsWith('-')) ?? ''}`;
  // Loaded on first use: a gateway that never runs it does not pay its start-up.
  const { execa } = await import('execa');
  const result = await traceCliRun(client.cli, ['api'], () =>
    execa(client.cli, ['api', ...args], {
      env: client.env,
      timeout: client.timeoutMs,
      cancelSignal: signal,
      forceKillAfterDelay: 2_000,
      reject: false,
      stdin: 'ignore',
      stripFinalNewline: false,
      maxBuffer: MAX_ANSWER_BYTES,
    }),
  );
  if (!result.failed) return String(result.stdout);
  const stderr = typeof result.stderr === 'string' ? result.stderr : '';
  if (result.isMaxBuffer) {
    throw new ReviewApiError(`${what}: the answer is over ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`, {
      tooLarge: true,
    });
  }
  if (result.timedOut) {
    throw new ReviewApiError(`${what} timed out after ${client.timeoutMs / 1000} s`, {
      timedOut: true,
    });
  }
  if (result.isCanceled) {
    throw new ReviewApiError(`${what} was stopped (the attempt was aborted)`, { unusable: true });
  }
  if (result.exitCode === undefined) {
    throw new ReviewApiError(`${what} could not be started (${result.code ?? 'unknown error'})`, {
      unusable: true,
    });
  }
  const match = HTTP_STATUS.exec(stderr);
  const status = match ? Number(match[1]) : /\b404\b/.test(stderr) ? 404 : undefined;
  const said =
    stderr.trim() === '' ? `exit code ${result.exitCode}` : stderrSummary(stderr, client.secrets);
  throw new ReviewApiError(`${what} failed: ${said}`, {
    ...(status === undefined ? {} : { status }),
    tooLarge: status === 406 || status === 422,
    unusable:
      status === 401 || status === 403 || (status === undefined && /auth login/i.test(stderr)),
  });
}

/** A JSON answer of `readApi`, or a `ReviewApiError` naming the call. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ReviewApiError(`${what} did not answer JSON`, {});
  }
}
