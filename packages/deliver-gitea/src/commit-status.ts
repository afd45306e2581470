/**
 * `deliver_extra.check: true` on Gitea: the review's check as a commit status
 * (`POST /repos/{owner}/{repo}/statuses/{sha}`) on the pull request's head commit, context
 * `webhook-gateway/<route>`, linking to the delivery's dashboard page when its public address is
 * set. What to say when is `deliver-forge-comment/comments`' (as for the forge and the altforge):
 * `pending` with its place while it waits in the queue and when an attempt starts, and the end
 * of a delivery without its review, from the plugin's hooks (`setGiteaCheck`); the conclusion once the review is posted, from the target
 * (`withCommitStatus`).
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
import { giteaApi, type GiteaApi } from './gitea-api.js';
import { resolveGiteaPullRequest, type GiteaPullRequest } from './pull-request.js';
import { giteaConnection, type GiteaSettings } from './settings.js';

/** The status Gitea takes for `status` of delivery `journalId` on route `route`. */
function giteaStatus(
  request: Pick<DeliverRequest, 'config'> & { delivery: { id: string; route: string } },
  status: CheckStatus,
) {
  const link = dashboardPage(
    request.config.platforms.webhook.extra.admin?.public_url,
    request.delivery.id,
  );
  return {
    state: status.state,
    context: checkName(request.delivery.route),
    description: status.description,
    ...(link ? { target_url: link } : {}),
  };
}

/** Runs `post`; with `check: true`, then ends the check with the agent's conclusion. */
export function withCommitStatus(
  request: DeliverRequest,
  api: GiteaApi,
  pullRequest: GiteaPullRequest,
  target: string,
  post: () => Promise<readonly LineComment[]>,
): Promise<void> {
  const { repo, headSha } = pullRequest;
  const setStatus =
    headSha === undefined
      ? undefined
      : (status: CheckStatus) => api.postStatus(repo, headSha, giteaStatus(request, status));
  return withCheckStatus(request, target, setStatus, post);
}

/**
 * Sets the check's status from a hook (`attemptStarted`, `deliveryWaiting`, `deliveryEnded`); the templates see the
 * payload only. Never throws: a status is never worth a failed attempt.
 */
export async function setGiteaCheck(
  request: DeliveryStateRequest,
  settings: GiteaSettings,
  options: HttpTargetOptions,
  status: CheckStatus,
): Promise<void> {
  const target = request.routeConfig.deliver;
  try {
    const found = giteaConnection(settings);
    if (!found.ok) return;
    const extra = renderDeliverExtra(request.routeConfig.deliver_extra, request.delivery.payload);
    const { repo, headSha } = resolveGiteaPullRequest(target, extra, request.delivery.payload);
    if (headSha === undefined) return;
    const api = giteaApi({
      connection: found.connection,
      options,
      signal: request.signal,
      log: request.log,
      target,
    });
    await api.postStatus(repo, headSha, giteaStatus(request, status));
  } catch (error) {
    request.log.warn(
      { target, state: status.state, err: errorMessage(error) },
      'could not set the commit status',
    );
  }
}
