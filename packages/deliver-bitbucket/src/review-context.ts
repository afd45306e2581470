/**
 * This plugin's answer to `reviewContext`: a Bitbucket Cloud or Data Center pull request's review
 * context, read through that Bitbucket's REST API with its `platforms.bitbucket` token and
 * assembled as the forge's is (`deliver-forge-comment/review`): the pruned diff, the rules and
 * guidance of the base commit.
 */
import {
  pullRequestOf,
  type ReviewContext,
  type ReviewContextRequest,
} from '@webhook-gateway/core';
import {
  reviewContextFrom,
  type BaseFiles,
  type ReviewSource,
} from '@webhook-gateway/deliver-forge-comment/review';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { bitbucketApi } from './bitbucket-api.js';
import { dataCenterApi } from './data-center-api.js';
import { dataCenterReviewSource } from './data-center-review-source.js';
import { bitbucketFlavourOf } from './pull-request.js';
import { bitbucketReviewSource } from './review-source.js';
import { bitbucketConnection, dataCenterConnection, type BitbucketSettings } from './settings.js';

const WHO = 'review context';
/** `workspace/repo_slug` or `PROJECT/repo_slug`, nothing that could leave the repository's path. */
const REPO_NAME = /^[^\s/]+\/[^\s/]+$/;

/** The pull request of a Bitbucket delivery; undefined for any other sender. */
function bitbucketPullRequest(request: ReviewContextRequest) {
  const { authScheme, payload } = request.delivery;
  if (authScheme !== undefined && authScheme !== 'bitbucket') return undefined;
  return pullRequestOf(payload, 'bitbucket');
}

/**
 * The review context of a Bitbucket delivery's pull request, or undefined when the delivery is
 * not one. Throws, not to be retried, without that Bitbucket's token (or Data Center's address)
 * or with a repository name that cannot go into a path; a failed read throws and the attempt is
 * retried.
 *
 * @example await prepareBitbucketReviewContext(request, settings, options, baseFiles)
 */
export async function prepareBitbucketReviewContext(
  request: ReviewContextRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
  baseFiles: BaseFiles,
): Promise<ReviewContext | undefined> {
  const pullRequest = bitbucketPullRequest(request);
  if (!pullRequest) return undefined;
  const notRetried = (message: string) =>
    Object.assign(new Error(`${WHO}: ${message}`), { retryable: false });
  const { payload } = request.delivery;
  const dataCenter = bitbucketFlavourOf(payload) === 'data-center';
  const { repo, number: id } = pullRequest;
  if (!REPO_NAME.test(repo) || /(^|\/)\.\.?(\/|$)/.test(repo)) {
    throw notRetried(
      dataCenter
        ? `pullRequest.toRef.repository "${repo}" is not a PROJECT/repo_slug name`
        : `repository.full_name "${repo}" is not a workspace/repo_slug name`,
    );
  }
  const site = { options, signal: request.signal, log: request.log, target: WHO };
  const found = dataCenter
    ? reviewSourceOn(dataCenterConnection(settings), (connection) =>
        dataCenterReviewSource(
          { repo, id, payload },
          dataCenterApi({ ...site, connection }),
          connection.apiBase,
        ),
      )
    : reviewSourceOn(bitbucketConnection(settings), (connection) =>
        bitbucketReviewSource(
          { repo, id, payload },
          bitbucketApi({ ...site, connection }),
          connection.apiBase,
        ),
      );
  if (!found.ok) {
    throw notRetried(
      `cannot read the pull request: platforms.bitbucket.${found.missing} is not set`,
    );
  }
  return reviewContextFrom(found.source, request, baseFiles);
}

/** The source over a connection that was found, or the key that is missing. */
function reviewSourceOn<C>(
  found: { ok: true; connection: C } | { ok: false; missing: string },
  source: (connection: C) => ReviewSource,
): { ok: true; source: ReviewSource } | { ok: false; missing: string } {
  return found.ok ? { ok: true, source: source(found.connection) } : found;
}
