/**
 * This plugin's answer to `reviewContext`: a Bitbucket Cloud pull request's review context, read
 * through the REST API with `platforms.bitbucket`'s token and assembled as the forge's is
 * (`deliver-forge-comment/review`): the pruned diff, the rules and guidance of the base commit.
 */
import {
  pullRequestOf,
  type ReviewContext,
  type ReviewContextRequest,
} from '@webhook-gateway/core';
import { reviewContextFrom, type BaseFiles } from '@webhook-gateway/deliver-forge-comment/review';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { bitbucketApi } from './bitbucket-api.js';
import { bitbucketReviewSource } from './review-source.js';
import { bitbucketConnection, type BitbucketSettings } from './settings.js';

const WHO = 'review context';
/** `workspace/repo_slug`, nothing that could leave the repository's path. */
const REPO_NAME = /^[^\s/]+\/[^\s/]+$/;

/** Cloud's pull request of a Bitbucket delivery; undefined for any other sender (Data Center too). */
function cloudPullRequest(request: ReviewContextRequest) {
  const { authScheme, payload } = request.delivery;
  if (authScheme !== undefined && authScheme !== 'bitbucket') return undefined;
  // Data Center names `pullRequest` and speaks another API.
  if (!('pullrequest' in payload)) return undefined;
  return pullRequestOf(payload, 'bitbucket');
}

/**
 * The review context of a Bitbucket Cloud delivery's pull request, or undefined when the
 * delivery is not one. Throws, not to be retried, without `platforms.bitbucket.token` or with a
 * repository name that cannot go into a path; a failed read throws and the attempt is retried.
 *
 * @example await prepareBitbucketReviewContext(request, settings, options, baseFiles)
 */
export async function prepareBitbucketReviewContext(
  request: ReviewContextRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
  baseFiles: BaseFiles,
): Promise<ReviewContext | undefined> {
  const pullRequest = cloudPullRequest(request);
  if (!pullRequest) return undefined;
  const notRetried = (message: string) =>
    Object.assign(new Error(`${WHO}: ${message}`), { retryable: false });
  if (!REPO_NAME.test(pullRequest.repo) || /(^|\/)\.\.?(\/|$)/.test(pullRequest.repo)) {
    throw notRetried(
      `repository.full_name "${pullRequest.repo}" is not a workspace/repo_slug name`,
    );
  }
  const found = bitbucketConnection(settings);
  if (!found.ok) {
    throw notRetried(
      `cannot read the pull request: platforms.bitbucket.${found.missing} is not set`,
    );
  }
  const api = bitbucketApi({
    connection: found.connection,
    options,
    signal: request.signal,
    log: request.log,
    target: WHO,
  });
  const source = bitbucketReviewSource(
    { repo: pullRequest.repo, id: pullRequest.number, payload: request.delivery.payload },
    api,
    found.connection.apiBase,
  );
  return reviewContextFrom(source, request, baseFiles);
}
