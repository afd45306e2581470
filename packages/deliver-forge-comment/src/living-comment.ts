/**
 * `deliver_extra.mode: update` on `forge_comment`: one living comment per pull request and route.
 * The gateway's comments carry a hidden marker; the answer's parts edit the marked comments in
 * order (`gh api` PATCH), parts without a comment are posted, and marked comments beyond the
 * answer are deleted. A comment someone deleted is simply posted again.
 */
import { FORGE_TARGET, type ForgePullRequest } from './forge-target.js';
import { CommentDeliveryError } from './errors.js';
import { describeCliFailure } from './failure.js';
import { FORGE_PROFILE } from './forge-cli.js';
import { runCli } from './run-cli.js';

/** How a route's comments are found again: a line no reader sees. */
export function commentMarker(route: string): string {
  return `<!-- webhook-gateway:${route} -->`;
}

/** `deliver_extra.mode`: `new` (default) posts a comment per answer; `update` edits one. */
export function commentMode(extra: Record<string, unknown>): 'new' | 'update' {
  const mode = extra.mode ?? 'new';
  if (mode === 'new' || mode === 'update') return mode;
  throw Object.assign(
    new CommentDeliveryError(
      FORGE_TARGET,
      'invalid-target',
      `deliver_extra.mode is ${JSON.stringify(mode)}; use "new" or "update"`,
    ),
    { retryable: false },
  );
}

export interface LivingCommentCall {
  cli: string;
  env: Record<string, string>;
  host: string;
  timeoutS: number;
  secrets: readonly string[];
  signal: AbortSignal;
  pullRequest: ForgePullRequest;
  route: string;
  /** The answer's parts, each already short enough with the marker added. */
  bodies: readonly string[];
}

/** What an update did, for the log. */
export interface LivingCommentOutcome {
  edited: number;
  posted: number;
  deleted: number;
}

/** Edits, posts and deletes the route's marked comments so they hold `bodies`, in order. */
export async function updateForgeComments(call: LivingCommentCall): Promise<LivingCommentOutcome> {
  const { repo, prNumber } = call.pullRequest;
  const marker = commentMarker(call.route);
  const gh = async (args: string[], input = ''): Promise<string> => {
    const outcome = await runCli({
      cli: call.cli,
      args: ['api', ...args],
      input,
      env: call.env,
      timeoutMs: call.timeoutS * 1000,
      signal: call.signal,
    });
    if (outcome.kind === 'ok') return outcome.stdout;
    const { reason, message } = describeCliFailure(outcome, {
      profile: FORGE_PROFILE,
      cli: call.cli,
      host: call.host,
      timeoutS: call.timeoutS,
      subject: `pull request #${prNumber} of ${repo}`,
      secrets: call.secrets,
    });
    throw new CommentDeliveryError(FORGE_TARGET, reason, message);
  };
  // The marker goes into the jq program as a JSON string literal (a valid jq string).
  const listed = await gh([
    '--paginate',
    `repos/${repo}/issues/${prNumber}/comments`,
    '--jq',
    `.[] | select(.body | contains(${JSON.stringify(marker)})) | .id`,
  ]);
  const ids = listed
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^\d+$/.test(line));
  const outcome: LivingCommentOutcome = { edited: 0, posted: 0, deleted: 0 };
  for (const [index, body] of call.bodies.entries()) {
    const input = JSON.stringify({ body: `${marker}\n${body}` });
    const id = ids[index];
    if (id !== undefined) {
      await gh(['-X', 'PATCH', `repos/${repo}/issues/comments/${id}`, '--input', '-'], input);
      outcome.edited++;
    } else {
      await gh(['-X', 'POST', `repos/${repo}/issues/${prNumber}/comments`, '--input', '-'], input);
      outcome.posted++;
    }
  }
  for (const id of ids.slice(call.bodies.length)) {
    await gh(['-X', 'DELETE', `repos/${repo}/issues/comments/${id}`]);
    outcome.deleted++;
  }
  return outcome;
}
