/**
 * `deliver_extra.check: true` on Bitbucket Cloud: a build status
 * (`POST …/commit/{node}/statuses/build`) on the pull request's head commit, key
 * `webhook-gateway/<route>`, linking to the pull request; when to set which state is
 * `withCheckStatus`'s (shared with the other REST forges).
 */
import type { DeliverRequest } from '@webhook-gateway/core';
import { statusContext, withCheckStatus } from '@webhook-gateway/deliver-forge-comment/comments';
import type { BitbucketApi } from './bitbucket-api.js';
import type { BitbucketPullRequest } from './pull-request.js';

/** Runs `post`; with `check: true`, then sets the head commit's build status. */
export function withBuildStatus(
  request: DeliverRequest,
  api: BitbucketApi,
  pullRequest: BitbucketPullRequest,
  target: string,
  post: () => Promise<void>,
): Promise<void> {
  const { repo, id, headSha } = pullRequest;
  const key = statusContext(request.delivery.route);
  // Bitbucket requires a link: the pull request's page, as the payload gives it.
  const url = pullRequest.url ?? `https://bitbucket.org/${repo}/pull-requests/${id}`;
  const setStatus =
    headSha === undefined
      ? undefined
      : (state: 'success' | 'failure', description: string) =>
          api.postBuildStatus(repo, headSha, {
            key,
            name: key,
            state: state === 'success' ? 'SUCCESSFUL' : 'FAILED',
            url,
            description,
          });
  return withCheckStatus(request, target, setStatus, post);
}
