/**
 * `deliver_extra.check: true`: the review's state as a commit status on the pull request's head
 * commit, context `webhook-gateway/<route>`. `success` once the answer is posted; `failure`, with
 * the error, when the delivery's last attempt fails. A status that cannot be set is logged, never
 * a reason to post the answer again.
 */
import { errorMessage, type DeliverRequest } from '@webhook-gateway/core';
import type { GiteaApi, GiteaStatus } from './gitea-api.js';
import type { GiteaPullRequest } from './pull-request.js';

/** Gitea keeps a status's description short; the forge cuts at 140, so the gateway does too. */
const STATUS_DESCRIPTION_LIMIT = 140;

/** True when the route asks for a status (`check: true`, or `"true"` from a template). */
export function wantsCheck(extra: Record<string, unknown>): boolean {
  return extra.check === true || extra.check === 'true';
}

/** The status's name on the commit: one per route. */
export function statusContext(route: string): string {
  return `webhook-gateway/${route}`;
}

/** The first line of `text` with words in it, cut to the limit with an ellipsis. */
export function statusDescription(text: string): string {
  const line =
    text
      .split('\n')
      .map((part) => part.trim())
      .find((part) => part !== '' && !part.startsWith('<!--')) ?? '';
  return line.length <= STATUS_DESCRIPTION_LIMIT
    ? line
    : `${line.slice(0, STATUS_DESCRIPTION_LIMIT - 1)}…`;
}

/** True when the worker will not try this delivery again after a throw. */
function isLastAttempt(request: DeliverRequest, error: unknown): boolean {
  const notRetried = (error as { retryable?: unknown } | undefined)?.retryable === false;
  return notRetried || request.delivery.attempts >= request.delivery.maxAttempts;
}

/**
 * Runs `post` (which sends the answer); with `check: true`, then sets the head commit's status.
 * Rethrows `post`'s error after setting `failure` on the last attempt.
 */
export async function withCommitStatus(
  request: DeliverRequest,
  api: GiteaApi,
  pullRequest: GiteaPullRequest,
  target: string,
  post: () => Promise<void>,
): Promise<void> {
  const sha = pullRequest.headSha;
  if (!wantsCheck(request.extra)) return post();
  if (sha === undefined) {
    request.log.info({ target }, 'no head commit in the payload: no commit status is set');
    return post();
  }
  const setStatus = async (state: GiteaStatus['state'], description: string) => {
    try {
      await api.postStatus(pullRequest.repo, sha, {
        state,
        context: statusContext(request.delivery.route),
        description: statusDescription(description),
      });
    } catch (error) {
      request.log.warn(
        { target, state, err: errorMessage(error) },
        'could not set the commit status',
      );
    }
  };
  try {
    await post();
  } catch (error) {
    if (isLastAttempt(request, error) && !request.signal.aborted) {
      await setStatus('failure', `The review could not be posted: ${errorMessage(error)}`);
    }
    throw error;
  }
  await setStatus('success', request.summary.trim() === '' ? 'Review posted' : request.summary);
}
