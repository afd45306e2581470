/**
 * One `<cli> api …` call for a comment target: the CLI's stdout when it succeeds, else a
 * `CommentDeliveryError` worded like the target's other failures (the worker retries it).
 * `runCliApi` and `cliApiError` are its two halves, for targets that look at a failure before
 * giving up on it (a review's refused line).
 */
import { CommentDeliveryError } from './errors.js';
import { describeCliFailure, type FailureContext } from './failure.js';
import { runCli, type CliOutcome } from './run-cli.js';

export interface CliApiContext extends FailureContext {
  env: Record<string, string>;
  signal: AbortSignal;
}

/** `(args, stdin) => stdout` for `<cli> api <args…>`. */
export type CliApi = (args: readonly string[], input?: string) => Promise<string>;

/** Runs `<cli> api <args…>` with `input` on stdin; its outcome, failed or not. */
export function runCliApi(
  context: CliApiContext,
  args: readonly string[],
  input = '',
): Promise<CliOutcome> {
  return runCli({
    cli: context.cli,
    args: ['api', ...args],
    input,
    env: context.env,
    timeoutMs: context.timeoutS * 1000,
    signal: context.signal,
  });
}

/** The error a failed call is, for the journal; `progress` says what had already been done. */
export function cliApiError(
  context: CliApiContext,
  outcome: Exclude<CliOutcome, { kind: 'ok' }>,
  progress = '',
): CommentDeliveryError {
  const { reason, message } = describeCliFailure(outcome, context);
  return new CommentDeliveryError(context.profile.target, reason, message + progress);
}

export function cliApi(context: CliApiContext): CliApi {
  return async (args, input = '') => {
    const outcome = await runCliApi(context, args, input);
    if (outcome.kind === 'ok') return outcome.stdout;
    throw cliApiError(context, outcome);
  };
}
