/**
 * `deliver_extra.check: true` on Bitbucket: the review's check as a build status on the pull
 * request's head commit (Cloud: `POST …/commit/{node}/statuses/build`; Data Center:
 * `POST …/commits/{commitId}/builds`), key `webhook-gateway/<route>`, linking to the delivery's
 * dashboard page when its public address is set, else to the pull request (Bitbucket requires a
 * link). What to say when is `deliver-forge-comment/comments`' (as for Gitea): `INPROGRESS` with its
 * place while it waits in the queue and when an attempt starts and the end of a delivery without its review, from the plugin's hooks
 * (`setBitbucketCheck`); the conclusion once the review is posted, from the target
 * (`withBuildStatus`).
 */
import {
  errorMessage,
  renderDeliverExtra,
  type DeliverRequest,
  type DeliveryStateRequest,
  type LineComment,
} from '@webhook-gateway/core';
import {
  checkName,
  dashboardPage,
  withCheckStatus,
  type CheckStatus,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { hookDelivery, type BitbucketDelivery } from './connect.js';
import type { BuildStatus } from './pull-request-calls.js';
import type { BitbucketSettings } from './settings.js';

const STATES: Record<CheckStatus['state'], BuildStatus['state']> = {
  pending: 'INPROGRESS',
  success: 'SUCCESSFUL',
  failure: 'FAILED',
};

/** The build status of `status` for the delivery, on the pull request's head commit. */
function buildStatus(
  request: Pick<DeliverRequest, 'config'> & { delivery: { id: string; route: string } },
  page: string,
  status: CheckStatus,
): BuildStatus {
  const key = checkName(request.delivery.route);
  const url =
    dashboardPage(request.config.platforms.webhook.extra.admin?.public_url, request.delivery.id) ??
    page;
  return { key, name: key, state: STATES[status.state], url, description: status.description };
}

/** Runs `post`; with `check: true`, then ends the check with the agent's conclusion. */
export function withBuildStatus(
  request: DeliverRequest,
  { calls, pullRequest }: BitbucketDelivery,
  target: string,
  post: () => Promise<readonly LineComment[]>,
): Promise<void> {
  const { headSha } = pullRequest;
  const setStatus =
    headSha === undefined
      ? undefined
      : (status: CheckStatus) =>
          calls.setBuildStatus(headSha, buildStatus(request, calls.page, status));
  return withCheckStatus(request, target, setStatus, post);
}

/**
 * Sets the check's build status from a hook (`attemptStarted`, `deliveryWaiting`, `deliveryEnded`); the templates
 * see the payload only. Never throws: a status is never worth a failed attempt.
 */
export async function setBitbucketCheck(
  request: DeliveryStateRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
  status: CheckStatus,
): Promise<void> {
  const target = request.routeConfig.deliver;
  try {
    const extra = renderDeliverExtra(request.routeConfig.deliver_extra, request.delivery.payload);
    const delivery = hookDelivery(request, extra, settings, options, target);
    const headSha = delivery?.pullRequest.headSha;
    if (delivery === undefined || headSha === undefined) return;
    const { calls } = delivery;
    await calls.setBuildStatus(headSha, buildStatus(request, calls.page, status));
  } catch (error) {
    request.log.warn(
      { target, state: status.state, err: errorMessage(error) },
      'could not set the build status',
    );
  }
}
