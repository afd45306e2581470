/**
 * `deliver_extra.check: true` on Gitea: a commit status (`POST /repos/{owner}/{repo}/statuses/{sha}`)
 * on the pull request's head commit, context `webhook-gateway/<route>`; when to set which state is
 * `withCheckStatus`'s (shared with the other REST forges).
 */
import type { DeliverRequest } from '@webhook-gateway/core';
import { statusContext, withCheckStatus } from '@webhook-gateway/deliver-forge-comment/comments';
import type { GiteaApi } from './gitea-api.js';
import type { GiteaPullRequest } from './pull-request.js';

/** Runs `post`; with `check: true`, then sets the head commit's status. */
export function withCommitStatus(
  request: DeliverRequest,
  api: GiteaApi,
  pullRequest: GiteaPullRequest,
  target: string,
  post: () => Promise<void>,
): Promise<void> {
  const { repo, headSha } = pullRequest;
  const setStatus =
    headSha === undefined
      ? undefined
      : (state: 'success' | 'failure', description: string) =>
          api.postStatus(repo, headSha, {
            state,
            context: statusContext(request.delivery.route),
            description,
          });
  return withCheckStatus(request, target, setStatus, post);
}
