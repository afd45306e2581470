/** Posts comment bodies one after another through a forge CLI, stopping at the first failure. */
import type { CliProfile } from './cli-profile.js';
import { CommentDeliveryError } from './errors.js';
import { describeCliFailure } from './failure.js';
import { runCli } from './run-cli.js';

export interface CommentPosting {
  profile: CliProfile;
  cli: string;
  args: readonly string[];
  env: Record<string, string>;
  host: string;
  timeoutS: number;
  /** What the comments are for, for messages: `pull request #2 of octo/hello`. */
  subject: string;
  /** In order; each one is a separate CLI run with the body on stdin. */
  bodies: readonly string[];
  /** Masked out of every message. */
  secrets: readonly string[];
  signal: AbortSignal;
}

/**
 * Posts every body in order. A failure throws a `CommentDeliveryError`; for a split answer it says
 * how many parts were already posted (a retry posts the whole answer again).
 */
export async function postComments(posting: CommentPosting): Promise<void> {
  const total = posting.bodies.length;
  for (const [index, body] of posting.bodies.entries()) {
    const outcome = await runCli({
      cli: posting.cli,
      args: posting.args,
      input: body,
      env: posting.env,
      timeoutMs: posting.timeoutS * 1000,
      signal: posting.signal,
    });
    if (outcome.kind === 'ok') continue;
    const { reason, message } = describeCliFailure(outcome, posting);
    const progress =
      total > 1 ? ` (comment ${index + 1} of ${total}; ${index} already posted)` : '';
    throw new CommentDeliveryError(posting.profile.target, reason, message + progress);
  }
}
