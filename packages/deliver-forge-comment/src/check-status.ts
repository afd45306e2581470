/**
 * `deliver_extra.check: true` on the REST forge targets (Gitea, Bitbucket): the review's check as
 * a status on the head commit, told the way `check-output.ts` tells the forge's and the
 * altforge's. Pending with its place while it waits in the queue (`deliveryWaiting`), in
 * progress when an attempt starts (`attemptStarted`), ended with the agent's
 * conclusion once the review is posted (the target, through `withCheckStatus`), or without a
 * review (`deliveryEnded`: failed for good, or silent). Statuses have no neutral: it is success,
 * nothing blocks the merge. How a status is set comes from each forge's own code.
 */
import {
  errorMessage,
  type DeliverRequest,
  type DeliveryEndedRequest,
  type LineComment,
  type QueueStanding,
} from '@webhook-gateway/core';
import {
  checkIsOn,
  deliveredCheck,
  failedCheck,
  IN_PROGRESS_TITLE,
  queuedTitle,
  silentCheck,
  statusDescription,
  type CheckEnd,
} from './check-output.js';

/** A status as the gateway sets it; each forge writes `state` in its own words. */
export interface CheckStatus {
  state: 'pending' | 'success' | 'failure';
  /** Within the forge's 140 characters. */
  description: string;
}

/** Sets the status on the delivery's head commit. */
export type SetCheckStatus = (status: CheckStatus) => Promise<void>;

/** The status of a check in progress. */
export const PENDING_STATUS: CheckStatus = {
  state: 'pending',
  description: statusDescription(IN_PROGRESS_TITLE),
};

/** The status of a review still queued, with its place in its route's queue ("Queued, 2nd"). */
export function queuedStatus(standing: Pick<QueueStanding, 'position' | 'reasons'>): CheckStatus {
  return { state: 'pending', description: statusDescription(queuedTitle(standing)) };
}

/** The status a check's end leaves: `failure` only for that conclusion. */
export function endStatus(end: CheckEnd): CheckStatus {
  return {
    state: end.conclusion === 'failure' ? 'failure' : 'success',
    description: statusDescription(end.title),
  };
}

/** How a delivery that ended without its review (`deliveryEnded`) ends its check. */
export function endWithoutReview(request: DeliveryEndedRequest): CheckStatus {
  return endStatus(
    request.status === 'failed' ? failedCheck(request.error) : silentCheck(request.conclusion),
  );
}

/**
 * Runs `post` (which sends the review and says which line comments went on their lines); with
 * `check: true` and a head commit (`setStatus` given), then ends the check with the agent's
 * conclusion. A status that cannot be set is logged, never thrown: the review is out, and a
 * retry would post it again.
 */
export async function withCheckStatus(
  request: DeliverRequest,
  target: string,
  setStatus: SetCheckStatus | undefined,
  post: () => Promise<readonly LineComment[]>,
): Promise<void> {
  const placed = await post();
  if (!checkIsOn(request.extra)) return;
  if (setStatus === undefined) {
    request.log.info({ target }, 'no head commit in the payload: no commit status is set');
    return;
  }
  const moved = request.lineComments.filter((comment) => !placed.includes(comment));
  try {
    await setStatus(endStatus(deliveredCheck(request.summary, request.conclusion, placed, moved)));
  } catch (error) {
    request.log.warn(
      { target, err: errorMessage(error) },
      "could not complete the review's check; the review itself was delivered",
    );
  }
}
