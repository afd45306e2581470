/**
 * One `<cli> api …` call for a comment target: the CLI's stdout when it succeeds, else a
 * `CommentDeliveryError` worded like the target's other failures (the worker retries it).
 */
import { CommentDeliveryError } from './errors.js';
import { describeCliFailure, type FailureContext } from './failure.js';
import { runCli } from './run-cli.js';

export interface CliApiContext extends FailureContext {
  env: Record<string, string>;
  signal: AbortSignal;
}

/** `(args, stdin) => stdout` for `<cli> api <args…>`. */
export type CliApi = (args: readonly string[], input?: string) => Promise<string>;

export function cliApi(context: CliApiContext): CliApi {
  return async (args, input = '') => {
    const outcome = await runCli({
      cli: context.cli,
      args: ['api', ...args],
      input,
      env: context.env,
      timeoutMs: context.timeoutS * 1000,
      signal: context.signal,
    });
    if (outcome.kind === 'ok') return outcome.stdout;
    const { reason, message } = describeCliFailure(outcome, context);
    throw new CommentDeliveryError(context.profile.target, reason, message);
  };
}
