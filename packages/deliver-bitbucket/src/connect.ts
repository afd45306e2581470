/** What every Bitbucket delivery starts with: its settings checked, its pull request and its calls. */
import type { DeliverRequest } from '@webhook-gateway/core';
import { requireConnection, type HttpTargetOptions } from '@webhook-gateway/target-kit';
import { bitbucketApi, type BitbucketApi } from './bitbucket-api.js';
import { resolveBitbucketPullRequest, type BitbucketPullRequest } from './pull-request.js';
import { bitbucketConnection, type BitbucketSettings } from './settings.js';

export interface BitbucketDelivery {
  api: BitbucketApi;
  pullRequest: BitbucketPullRequest;
}

/**
 * The delivery's pull request and API. Throws, not to be retried, when `platforms.bitbucket` has
 * no token (a dynamic subscription may name the target although no route does).
 */
export function connectBitbucket(
  request: DeliverRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
  target: string,
): BitbucketDelivery {
  const connection = requireConnection(
    bitbucketConnection(settings),
    target,
    'platforms.bitbucket',
  );
  return {
    pullRequest: resolveBitbucketPullRequest(target, request.extra, request.delivery.payload),
    api: bitbucketApi({ connection, options, signal: request.signal, log: request.log, target }),
  };
}
