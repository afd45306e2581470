/**
 * `deliver_extra.check: true` on the REST forge targets: the review's state as a status on the
 * pull request's head commit, one per route. `pending` when an attempt starts (the `admit` hook),
 * `success` once the answer is posted (the target), and, when the delivery ends without it
 * (`attemptFinished`), `failure` with the error or `success` naming why nothing was posted. A
 * status that cannot be set is logged, never a reason to post the answer again. How a status is
 * set comes from the forge's own code.
 */
import {
  errorMessage,
  renderDeliverExtra,
  type AttemptEvent,
  type DeliverRequest,
  type RouteConfig,
} from '@webhook-gateway/core';

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

/** The states the gateway sets, in the forge's words by its own code. */
export type CheckState = 'pending' | 'success' | 'failure';

/** Sets the status on the head commit; the description is already cut. */
export type SetCheckStatus = (state: CheckState, description: string) => Promise<void>;

/**
 * Runs `post` (which sends the answer); with `check: true` and a head commit (`setStatus`
 * given), then sets `success`. A failure is set when the delivery ends (`finalCheck`).
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
  await post();
  try {
    const summary = request.summary.trim() === '' ? 'Review posted' : request.summary;
    await setStatus('success', statusDescription(summary));
  } catch (error) {
    request.log.warn({ target, err: errorMessage(error) }, 'could not set the commit status');
  }
}

/**
 * The route's `deliver_extra` rendered against `payload` when the route delivers to one of
 * `targets` with `check: true`; `undefined` otherwise (no status to set).
 */
export function checkedExtra(
  routeConfig: Pick<RouteConfig, 'deliver' | 'deliver_extra'> | undefined,
  targets: readonly string[],
  payload: unknown,
): Record<string, unknown> | undefined {
  if (routeConfig === undefined || !targets.includes(routeConfig.deliver)) return undefined;
  const extra = renderDeliverExtra(routeConfig.deliver_extra, payload);
  return wantsCheck(extra) ? extra : undefined;
}

/**
 * The status a delivery that ended without posting its answer leaves: `failure` for a failed
 * delivery or a spent budget, `success` naming why for one that was not to be reviewed (skipped,
 * silent, denied); `undefined` while it goes on, or once delivered (the target set `success`).
 */
export function finalCheck(
  event: Pick<AttemptEvent, 'status' | 'error'>,
): { state: CheckState; description: string } | undefined {
  const why = event.error === undefined ? '' : `: ${event.error}`;
  switch (event.status) {
    case 'failed':
      return { state: 'failure', description: statusDescription(`The review failed${why}`) };
    case 'over_budget':
      return { state: 'failure', description: statusDescription(`Over budget${why}`) };
    case 'skipped':
    case 'silent':
    case 'denied':
      return {
        state: 'success',
        description: statusDescription(`Not reviewed (${event.status})${why}`),
      };
    default:
      return undefined;
  }
}
