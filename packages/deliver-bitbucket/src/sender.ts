/**
 * Which deliveries are Bitbucket's: signed by Bitbucket's scheme, or on an open route a
 * Bitbucket event (`pullrequest:…` from Cloud, `pr:…` from Data Center) or one answered on
 * Bitbucket. Cloud's name the pull request `pullrequest`; Data Center's `pullRequest`.
 */
import type { JsonObject } from '@webhook-gateway/core';
import { BITBUCKET_TARGETS } from './target-names.js';

/**
 * True for a Bitbucket delivery.
 *
 * @example isBitbucketSender(delivery.authScheme, delivery.event, routeConfig.deliver)
 */
export function isBitbucketSender(
  authScheme: string | undefined,
  event: string,
  deliver: string,
): boolean {
  if (authScheme !== undefined) return authScheme === 'bitbucket';
  const targets: readonly string[] = BITBUCKET_TARGETS;
  return event.startsWith('pullrequest:') || event.startsWith('pr:') || targets.includes(deliver);
}

/** True for Bitbucket Cloud's payload shape (`pullrequest`), false for Data Center's. */
export function isCloudPayload(payload: JsonObject): boolean {
  return 'pullrequest' in payload;
}
