/**
 * The one place reconcile calls a forge CLI: `gh api` / `glab api` with `--include`, so the status
 * line and headers (the `Link` cursor, `Retry-After`) come back with the body. Any HTTP answer is
 * returned as is; only a CLI that could not be run or gave no answer at all throws.
 */
import { ReconcileFailure, type ApiResponse } from './failures.js';

export interface ApiCall {
  /** `gh` or `glab` (a path is fine): `platforms.<forge>.cli`. */
  cli: string;
  /** `platforms.forge` or `platforms.altforge`, for messages. */
  settingsKey: string;
  method: 'GET' | 'POST';
  /** Relative to the API root: `repos/o/r/hooks/1/deliveries?per_page=100`. */
  endpoint: string;
  /** Added to the gateway's environment (host, token). */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The CLIs' own texts for "no credentials" (they exit before any request). */
const NOT_LOGGED_IN = /auth login|not logged in|no token|authentication required|GH_TOKEN/i;

/** Runs `<cli> api <endpoint> --method <m> --include` and parses what it printed. */
export async function callForgeApi(call: ApiCall): Promise<ApiResponse> {
  // Loaded on first use: a gateway that never runs it does not pay its start-up.
  const { execa } = await import('execa');
  const result = await execa(
    call.cli,
    ['api', call.endpoint, '--method', call.method, '--include'],
    {
      env: call.env,
      timeout: call.timeoutMs,
      ...(call.signal ? { cancelSignal: call.signal } : {}),
      forceKillAfterDelay: 2_000,
      reject: false,
      stdin: 'ignore',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.code === 'ENOENT' || result.code === 'EACCES') {
    throw new ReconcileFailure(
      'cli-missing',
      `${call.cli} could not be run (${result.code}); install it or set ${call.settingsKey}.cli to its path`,
    );
  }
  if (result.timedOut) {
    throw new ReconcileFailure(
      'forge-error',
      `${call.cli} api ${call.endpoint} gave no answer within ${call.timeoutMs / 1000} s (${call.settingsKey}.timeout_s)`,
    );
  }
  const response = parseIncluded(String(result.stdout ?? ''));
  if (response) return response;
  const stderr = String(result.stderr ?? '').trim();
  if (NOT_LOGGED_IN.test(stderr)) {
    throw new ReconcileFailure(
      'not-authenticated',
      `${call.cli} is not authenticated: run "${call.cli} auth login" or set ${call.settingsKey}.token (${firstLine(stderr)})`,
    );
  }
  throw new ReconcileFailure(
    'forge-error',
    `${call.cli} api ${call.endpoint} failed (exit ${result.exitCode ?? result.signal ?? '?'}): ${firstLine(stderr) || 'no output'}`,
  );
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}

/**
 * `HTTP/1.1 200 OK`, header lines, a blank line, the body; undefined when the output does not
 * start with a status line (the CLI failed before any request).
 */
export function parseIncluded(output: string): ApiResponse | undefined {
  const status = /^HTTP\/[\d.]+ (\d{3})[^\r\n]*\r?\n/.exec(output);
  if (!status) return undefined;
  const rest = output.slice(status[0].length);
  const end = /\r?\n\r?\n/.exec(rest);
  const head = end ? rest.slice(0, end.index) : rest;
  const body = end ? rest.slice(end.index + end[0].length) : '';
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(status[1]), headers, body };
}
