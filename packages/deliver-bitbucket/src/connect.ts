/**
 * What every Bitbucket delivery starts with: its pull request, the Bitbucket it is on (Cloud or
 * Data Center, told by the payload), that Bitbucket's settings checked, and its calls.
 */
import type { DeliverRequest, DeliveryStateRequest, Logger } from '@webhook-gateway/core';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { cloudPullRequestCalls } from './cloud-calls.js';
import { dataCenterPullRequestCalls } from './data-center-calls.js';
import { resolveBitbucketPullRequest, type BitbucketPullRequest } from './pull-request.js';
import type { BitbucketPullRequestCalls } from './pull-request-calls.js';
import { bitbucketConnection, dataCenterConnection, type BitbucketSettings } from './settings.js';

export interface BitbucketDelivery {
  calls: BitbucketPullRequestCalls;
  pullRequest: BitbucketPullRequest;
  /** That Bitbucket's `bot` setting: whose marked comments are the route's own. */
  bot: string | undefined;
}

interface CallSite {
  options: HttpTargetOptions;
  signal: AbortSignal;
  log: Logger;
  target: string;
}

/**
 * The calls on `pullRequest`, on the Bitbucket it is on; or the key under `platforms.bitbucket`
 * that Bitbucket needs and is not set.
 */
function pullRequestCalls(
  pullRequest: BitbucketPullRequest,
  settings: BitbucketSettings,
  site: CallSite,
): { ok: true; delivery: BitbucketDelivery } | { ok: false; missing: string } {
  if (pullRequest.flavour === 'data-center') {
    const found = dataCenterConnection(settings);
    if (!found.ok) return found;
    const calls = dataCenterPullRequestCalls(
      { ...site, connection: found.connection },
      pullRequest,
    );
    return { ok: true, delivery: { calls, pullRequest, bot: settings.data_center?.bot } };
  }
  const found = bitbucketConnection(settings);
  if (!found.ok) return found;
  const calls = cloudPullRequestCalls({ ...site, connection: found.connection }, pullRequest);
  return { ok: true, delivery: { calls, pullRequest, bot: settings.bot } };
}

/**
 * For a hook (`attemptStarted`, `deliveryWaiting`, …): the delivery's pull request and calls
 * (`extra` is `deliver_extra` rendered against the payload), or undefined while its Bitbucket's
 * settings lack the token or address.
 */
export function hookDelivery(
  request: DeliveryStateRequest,
  extra: Record<string, unknown>,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
  target: string,
): BitbucketDelivery | undefined {
  const pullRequest = resolveBitbucketPullRequest(target, extra, request.delivery.payload);
  const site = { options, signal: request.signal, log: request.log, target };
  const found = pullRequestCalls(pullRequest, settings, site);
  return found.ok ? found.delivery : undefined;
}

/**
 * The delivery's pull request and calls. Throws, not to be retried, when its Bitbucket's settings
 * lack the token or address (a dynamic subscription may name the target although no route does).
 */
export function connectBitbucket(
  request: DeliverRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
  target: string,
): BitbucketDelivery {
  const pullRequest = resolveBitbucketPullRequest(target, request.extra, request.delivery.payload);
  const site = { options, signal: request.signal, log: request.log, target };
  const found = pullRequestCalls(pullRequest, settings, site);
  if (!found.ok) {
    throw Object.assign(
      new Error(`${target}: cannot deliver: platforms.bitbucket.${found.missing} is not set`),
      { retryable: false },
    );
  }
  return found.delivery;
}
