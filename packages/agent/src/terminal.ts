/**
 * Runs one terminal command with execa: its own process group (so a timeout or a stop kills the
 * whole pipeline, not only the shell), an allowlisted env, capped output, a per-command timeout.
 */
import type { Credentials } from '@webhook-gateway/core';
import { abortReason } from './abort.js';
import { capOutput, type CappedOutput } from './output-cap.js';
import type { TerminalConfig } from './agent-settings.js';
import { terminalArgv, wordsArgv } from './terminal-argv.js';
import { forwardedEnvNames } from './terminal-env.js';

/** What a command did, as the model and the journal see it. */
export interface TerminalOutcome {
  /** Null when the command did not exit on its own (timeout, signal, could not start). */
  exitCode: number | null;
  stdout: CappedOutput;
  stderr: CappedOutput;
  durationMs: number;
  /** Why there is no exit code, in words. */
  error?: string;
}

export interface TerminalRunOptions {
  terminal: TerminalConfig;
  /** The delivery's work directory. */
  cwd: string;
  /** Already allowlisted (see `terminalEnv`); nothing else from the gateway's env is passed. */
  env: Record<string, string>;
  /** The delivery's forge identity, already in `env`: forwarded into a container too. */
  credentials?: Credentials;
  /** The run's signal: aborting it kills the command and rejects. */
  signal: AbortSignal;
  /** The command's words, checked against `terminal.allow`: run without a shell. */
  words?: readonly string[];
}

/** Kills a detached command's whole process group; it may already be gone. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already exited
  }
}

/**
 * Runs `command` on the configured backend. Resolves with the outcome whatever the command did;
 * rejects only when the run's signal is aborted.
 *
 * @example await runTerminalCommand('gh pr diff 2 --repo o/r', { terminal, cwd, env, signal })
 */
export async function runTerminalCommand(
  command: string,
  options: TerminalRunOptions,
): Promise<TerminalOutcome> {
  const { terminal, signal } = options;
  // Loaded on first use: a gateway that never runs it does not pay its start-up.
  const { execa } = await import('execa');
  if (signal.aborted) throw abortReason(signal);
  const forward = forwardedEnvNames(options.env, terminal, options.credentials);
  const { file, args } = options.words
    ? wordsArgv(options.words, terminal, forward)
    : terminalArgv(command, terminal, forward);
  const maxBytes = terminal.max_output_bytes;
  // Collect somewhat more than is shown, so the note can say how much was left out.
  const bufferLimit = Math.max(maxBytes * 8, 1024 * 1024);
  const started = Date.now();
  const subprocess = execa(file, args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    stdin: 'ignore',
    detached: true,
    encoding: 'buffer',
    stripFinalNewline: false,
    maxBuffer: bufferLimit,
    reject: false,
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(subprocess.pid);
  }, terminal.timeout_s * 1000);
  const onAbort = () => killGroup(subprocess.pid);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await subprocess;
    if (signal.aborted) throw abortReason(signal);
    const stdout = capOutput(result.stdout, maxBytes, result.stdout.length >= bufferLimit);
    const stderr = capOutput(result.stderr, maxBytes, result.stderr.length >= bufferLimit);
    const outcome: TerminalOutcome = {
      exitCode: timedOut ? null : (result.exitCode ?? null),
      stdout,
      stderr,
      durationMs: Date.now() - started,
    };
    if (timedOut) {
      outcome.error = `command timed out after ${terminal.timeout_s} s and was killed (agent.terminal.timeout_s)`;
    } else if (result.code === 'ENOENT') {
      outcome.error = `"${file}" was not found on PATH (agent.terminal.backend is "${terminal.backend}")`;
    } else if (result.exitCode === undefined) {
      outcome.error = `command was killed by ${result.signal ?? 'a signal'}`;
    }
    return outcome;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
