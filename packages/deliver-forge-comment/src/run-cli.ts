/** Runs a forge CLI once with text on stdin and reports what happened, without judging it. */

import { traceCliRun } from './cli-span.js';

export interface CliCall {
  cli: string;
  args: readonly string[];
  /** Written to the CLI's stdin. */
  input: string;
  /** Added to the gateway's own environment. */
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
}

/** How one run ended. */
export type CliOutcome =
  | { kind: 'ok'; stdout: string }
  /** The program could not be started (`ENOENT`: not found; `EACCES`: not executable). */
  | { kind: 'spawn-error'; code: string }
  | { kind: 'timeout' }
  | { kind: 'canceled' }
  /** It ran and failed: a non-zero exit code, or killed by a signal. */
  | { kind: 'exit'; exitCode: number | undefined; signal: string | undefined; stderr: string };

/** Error codes of a program that never ran, as opposed to one that ran and failed. */
const SPAWN_ERRORS = new Set(['ENOENT', 'EACCES', 'ENOEXEC', 'EPERM', 'ENOTDIR', 'EISDIR']);

export async function runCli(call: CliCall): Promise<CliOutcome> {
  // Loaded on first use: a gateway that never runs it does not pay its start-up.
  const { execa } = await import('execa');
  const result = await traceCliRun(call.cli, call.args, () =>
    execa(call.cli, call.args, {
      input: call.input,
      env: call.env,
      timeout: call.timeoutMs,
      cancelSignal: call.signal,
      // A CLI that ignores SIGTERM gets SIGKILL soon after, so a stuck call cannot hold a worker.
      forceKillAfterDelay: 2_000,
      reject: false,
      stripFinalNewline: true,
      maxBuffer: 4 * 1024 * 1024,
    }),
  );
  if (!result.failed) {
    return { kind: 'ok', stdout: typeof result.stdout === 'string' ? result.stdout : '' };
  }
  if (result.isCanceled) return { kind: 'canceled' };
  if (result.timedOut) return { kind: 'timeout' };
  if (result.code !== undefined && SPAWN_ERRORS.has(result.code) && result.exitCode === undefined) {
    return { kind: 'spawn-error', code: result.code };
  }
  return {
    kind: 'exit',
    exitCode: result.exitCode,
    signal: result.signal,
    stderr: typeof result.stderr === 'string' ? result.stderr : '',
  };
}
