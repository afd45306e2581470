/**
 * This plugin's answer to `reviewContext`: a Gitea or Forgejo pull request's review context, read
 * over the REST API (`gitea-review-source.ts`) and assembled as the forge plugins assemble theirs
 * (deliver-forge-comment's `./review-context`): base-commit rules, skip rules, the pruned diff.
 */
import type { ReviewContext, ReviewContextRequest } from '@webhook-gateway/core';
import { reviewContextFrom, type BaseFiles } from '@webhook-gateway/deliver-forge-comment/review';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { giteaApi } from './gitea-api.js';
import { giteaReviewSource } from './gitea-review-source.js';
import { resolveGiteaPullRequest } from './pull-request.js';
import { giteaConnection, type GiteaSettings } from './settings.js';
import { isGiteaSender } from './sender.js';

const CONTEXT = 'review context';

/**
 * The review context of `request`'s Gitea pull request, or undefined when it is not a Gitea
 * delivery. Throws when the instance cannot be asked: `platforms.gitea` incomplete (not retried),
 * a failed call (retried).
 *
 * @example await prepareGiteaReviewContext(request, settings.gitea, options, baseFiles)
 */
export async function prepareGiteaReviewContext(
  request: ReviewContextRequest,
  settings: GiteaSettings,
  options: HttpTargetOptions,
  baseFiles: BaseFiles,
): Promise<ReviewContext | undefined> {
  const { delivery, routeConfig } = request;
  if (!isGiteaSender(delivery.authScheme, delivery.payload, routeConfig.deliver)) return undefined;
  const found = giteaConnection(settings);
  if (!found.ok) {
    throw Object.assign(
      new Error(`${CONTEXT}: cannot read it: platforms.gitea.${found.missing} is not set`),
      { retryable: false },
    );
  }
  const { payload } = request.delivery;
  // The payload's pull request, as the forge plugins read theirs: deliver_extra is the target's.
  const pullRequest = resolveGiteaPullRequest(CONTEXT, {}, payload);
  const api = giteaApi({
    connection: found.connection,
    options,
    signal: request.signal,
    log: request.log,
    target: CONTEXT,
  });
  const source = giteaReviewSource(
    { repo: pullRequest.repo, number: pullRequest.number, payload },
    api,
    found.connection.apiBase,
  );
  return reviewContextFrom(source, request, baseFiles);
}
