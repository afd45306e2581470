/**
 * `deliver_extra.check: true` on the REST forge targets: the review's state as a status on the
 * pull request's head commit, one per route. `success` once the answer is posted; `failure`, with
 * the error, when the delivery's last attempt fails. A status that cannot be set is logged, never
 * a reason to post the answer again. How a status is set comes from the forge's own code.
 */
import { errorMessage, type DeliverRequest } from '@webhook-gateway/core';

/** A status's description is cut to what the forge shows (the forge's own limit is 140). */
const STATUS_DESCRIPTION_LIMIT = 140;

/** True when the route asks for a status (`check: true`, or `"true"` from a template). */
export function wantsCheck(extra: Record<string, unknown>): boolean {
  return extra.check === true || extra.check === 'true';
}

/** The status's name on the commit: one per route. */
export function statusContext(route: string): string {
  return `webhook-gateway/${route}`;
}

/** The first line of `text` with words in it (not a hidden marker), cut with an ellipsis. */
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

/** Sets the status on the head commit; the description is already cut. */
export type SetCheckStatus = (state: 'success' | 'failure', description: string) => Promise<void>;

/**
 * Runs `post` (which sends the answer); with `check: true` and a head commit (`setStatus`
 * given), then sets the status. Rethrows `post`'s error after setting `failure` on the last
 * attempt.
 */
export async function withCheckStatus(
  request: DeliverRequest,
  target: string,
  setStatus: SetCheckStatus | undefined,
  post: () => Promise<void>,
): Promise<void> {
  if (!wantsCheck(request.extra)) return post();
  if (setStatus === undefined) {
    request.log.info({ target }, 'no head commit in the payload: no commit status is set');
    return post();
  }
  const set = async (state: 'success' | 'failure', description: string) => {
    try {
      await setStatus(state, statusDescription(description));
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
      await set('failure', `The review could not be posted: ${errorMessage(error)}`);
    }
    throw error;
  }
  await set('success', request.summary.trim() === '' ? 'Review posted' : request.summary);
}
