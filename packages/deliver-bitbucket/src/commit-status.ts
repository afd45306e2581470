/**
 * `deliver_extra.check: true` on Bitbucket Cloud: a build status
 * (`POST …/commit/{node}/statuses/build`) on the pull request's head commit, key
 * `webhook-gateway/<route>`, linking to the pull request. When to set which state is shared with
 * the other REST forges (`deliver-forge-comment/comments`): `INPROGRESS` as an attempt starts and
 * the delivery's end from the plugin's hooks (`setBitbucketCheck`), `SUCCESSFUL` from the target
 * once the answer is posted (`withBuildStatus`).
 */
import {
  errorMessage,
  type DeliverRequest,
  type JsonObject,
  type Logger,
} from '@webhook-gateway/core';
import {
  statusContext,
  withCheckStatus,
  type CheckState,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { bitbucketApi, type BitbucketApi, type BitbucketBuildStatus } from './bitbucket-api.js';
import { resolveBitbucketPullRequest, type BitbucketPullRequest } from './pull-request.js';
import { bitbucketConnection, type BitbucketSettings } from './settings.js';

const STATES: Record<CheckState, BitbucketBuildStatus['state']> = {
  pending: 'INPROGRESS',
  success: 'SUCCESSFUL',
  failure: 'FAILED',
};

/** The build status of `state` on the pull request's head commit. */
function buildStatus(
  route: string,
  pullRequest: BitbucketPullRequest,
  state: CheckState,
  description: string,
): BitbucketBuildStatus {
  const key = statusContext(route);
  const { repo, id } = pullRequest;
  // Bitbucket requires a link: the pull request's page, as the payload gives it.
  const url = pullRequest.url ?? `https://bitbucket.org/${repo}/pull-requests/${id}`;
  return { key, name: key, state: STATES[state], url, description };
}

/** Runs `post`; with `check: true`, then sets the head commit's build status. */
export function withBuildStatus(
  request: DeliverRequest,
  api: BitbucketApi,
  pullRequest: BitbucketPullRequest,
  target: string,
  post: () => Promise<void>,
): Promise<void> {
  const { repo, headSha } = pullRequest;
  const route = request.delivery.route;
  const setStatus =
    headSha === undefined
      ? undefined
      : (state: CheckState, description: string) =>
          api.postBuildStatus(repo, headSha, buildStatus(route, pullRequest, state, description));
  return withCheckStatus(request, target, setStatus, post);
}

/** A delivery whose status is set outside its target (as it starts, as it ends). */
export interface CheckSubject {
  settings: BitbucketSettings;
  options: HttpTargetOptions;
  target: string;
  route: string;
  /** The route's `deliver_extra`, rendered. */
  extra: Record<string, unknown>;
  payload: JsonObject;
  log: Logger;
  signal: AbortSignal;
}

/** Sets the head commit's build status; never throws. */
export async function setBitbucketCheck(
  subject: CheckSubject,
  state: CheckState,
  description: string,
): Promise<void> {
  const { target, log } = subject;
  try {
    const found = bitbucketConnection(subject.settings);
    if (!found.ok) return;
    const pullRequest = resolveBitbucketPullRequest(target, subject.extra, subject.payload);
    if (pullRequest.headSha === undefined) return;
    const api = bitbucketApi({ connection: found.connection, ...subject });
    await api.postBuildStatus(
      pullRequest.repo,
      pullRequest.headSha,
      buildStatus(subject.route, pullRequest, state, description),
    );
  } catch (error) {
    log.warn({ target, state, err: errorMessage(error) }, 'could not set the build status');
  }
}
