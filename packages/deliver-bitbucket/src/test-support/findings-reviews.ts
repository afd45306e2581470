/**
 * What both Bitbucket's findings tests (`remember-findings*.test.ts`) share: target-kit's
 * findings reviews of one pull request, through `bitbucket_review` with `platforms.bitbucket`.
 */
import type { JsonObject, Logger } from '@webhook-gateway/core';
import { findingsReviews } from '@webhook-gateway/target-kit/testing';
import { deliverBitbucketReview } from '../deliver-bitbucket-review.js';
import { bitbucketOptionsSchema, bitbucketSettingsSchema } from '../index.js';

/** The pull request's findings journal and a `bitbucket_review` of it at each call. */
export function bitbucketFindingsReviews(options: {
  /** The recorded webhook the reviews answer. */
  payload: JsonObject;
  /** The journal's order key of the pull request. */
  orderKey: string;
  /** `platforms.bitbucket`. */
  settings: Record<string, unknown>;
  log: Logger;
}) {
  const settings = bitbucketSettingsSchema.parse(options.settings);
  return findingsReviews({
    payload: options.payload,
    orderKey: options.orderKey,
    deliveryIdPrefix: 'bb-push',
    log: options.log,
    deliver: (request) =>
      deliverBitbucketReview(request, settings, bitbucketOptionsSchema.parse({})),
  });
}
