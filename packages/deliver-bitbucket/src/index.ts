/**
 * @webhook-gateway/deliver-bitbucket: the `bitbucket_comment` and `bitbucket_review` targets,
 * answering on Bitbucket Cloud pull requests through its REST API (`/2.0`), the review context
 * of Bitbucket Cloud deliveries (`reviewContext`), and the `platforms.bitbucket` slice they read.
 */
import {
  definePlugin,
  lazyTap,
  settingsIn,
  type DeliveryStateRequest,
} from '@webhook-gateway/core';
import {
  checkIsOn,
  endWithoutReview,
  PENDING_STATUS,
  queuedStatus,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { BaseFiles } from '@webhook-gateway/deliver-forge-comment/review';
import { httpTargetOptionsSchema } from '@webhook-gateway/target-kit';
import { bitbucketConfigProblems } from './config-problems.js';
import { bitbucketSettingsSchema } from './settings.js';
import {
  BITBUCKET_COMMENT_TARGET,
  BITBUCKET_REVIEW_TARGET,
  BITBUCKET_TARGETS,
} from './target-names.js';

export { bitbucketSettingsSchema, type BitbucketSettings } from './settings.js';
export { bitbucketConfigProblems } from './config-problems.js';
export { BITBUCKET_COMMENT_TARGET, BITBUCKET_REVIEW_TARGET } from './target-names.js';
/** The plugin's options: those of every target that calls an HTTP service (in target-kit). */
export {
  httpTargetOptionsSchema as bitbucketOptionsSchema,
  type HttpTargetOptions as BitbucketOptions,
} from '@webhook-gateway/target-kit';

export const DELIVER_BITBUCKET_PLUGIN_NAME = '@webhook-gateway/deliver-bitbucket';

/** The slice this plugin owns (named apart, so its check reads it without the plugin). */
const platforms = { bitbucket: bitbucketSettingsSchema };

/**
 * The plugin. Its delivery code (`./delivery`) is imported at the first delivery.
 *
 * @example
 * // config.yaml
 * // platforms:
 * //   bitbucket: { token: "${BITBUCKET_TOKEN}" }
 * //   webhook: { extra: { routes: { reviews: { deliver: bitbucket_comment,
 * //     deliver_extra: { mode: update } } } } }
 */
const bitbucketPlugin = definePlugin({
  name: DELIVER_BITBUCKET_PLUGIN_NAME,
  provides: { targets: [BITBUCKET_COMMENT_TARGET, BITBUCKET_REVIEW_TARGET] },
  platforms,
  options: httpTargetOptionsSchema,
  // At start, at reload and by `config validate`: a route delivering to Bitbucket without a
  // token, or with a mode that is not `new` or `update`.
  check: (config) => bitbucketConfigProblems(settingsIn({ platforms }, config).bitbucket, config),
  setup({ hooks }, options) {
    const deliverComment = lazyTap(
      () => import('./deliver-bitbucket-comment.js'),
      'deliverBitbucketComment',
    );
    const deliverReview = lazyTap(
      () => import('./deliver-bitbucket-review.js'),
      'deliverBitbucketReview',
    );
    // The slice of the attempt's config, so a reload applies to the next delivery.
    hooks.deliver
      .for(BITBUCKET_COMMENT_TARGET)
      .tapPromise(DELIVER_BITBUCKET_PLUGIN_NAME, (request) =>
        deliverComment(request, settingsIn({ platforms }, request.config).bitbucket, options),
      );
    hooks.deliver
      .for(BITBUCKET_REVIEW_TARGET)
      .tapPromise(DELIVER_BITBUCKET_PLUGIN_NAME, async (request) => {
        await deliverReview(request, settingsIn({ platforms }, request.config).bitbucket, options);
      });
    // Reviews: the pull request's diff, rules and guidance for the template, read through the
    // REST API at the first review whose template names a review value; base files kept per
    // repository and base commit.
    let baseFiles: BaseFiles | undefined;
    hooks.reviewContext.tapPromise(DELIVER_BITBUCKET_PLUGIN_NAME, async (request) => {
      const [{ prepareBitbucketReviewContext }, { BaseFiles }] = await Promise.all([
        import('./review-context.js'),
        import('@webhook-gateway/deliver-forge-comment/review'),
      ]);
      baseFiles ??= new BaseFiles();
      const settings = settingsIn({ platforms }, request.config).bitbucket;
      return prepareBitbucketReviewContext(request, settings, options, baseFiles);
    });
    // check: true: the review's check as a build status, in progress from the attempt's start
    // until the review is out (the target) or the delivery ended without it.
    const targets: readonly string[] = BITBUCKET_TARGETS;
    const showsCheck = (request: DeliveryStateRequest) =>
      targets.includes(request.routeConfig.deliver) && checkIsOn(request.routeConfig.deliver_extra);
    const setCheck = lazyTap(() => import('./commit-status.js'), 'setBitbucketCheck');
    const bitbucket = (request: DeliveryStateRequest) =>
      settingsIn({ platforms }, request.config).bitbucket;
    hooks.attemptStarted.tapPromise(DELIVER_BITBUCKET_PLUGIN_NAME, async (request) => {
      if (showsCheck(request)) await setCheck(request, bitbucket(request), options, PENDING_STATUS);
    });
    hooks.deliveryWaiting.tapPromise(DELIVER_BITBUCKET_PLUGIN_NAME, async (request) => {
      if (!showsCheck(request)) return;
      await setCheck(request, bitbucket(request), options, queuedStatus(request.standing.position));
    });
    hooks.deliveryEnded.tapPromise(DELIVER_BITBUCKET_PLUGIN_NAME, async (request) => {
      if (!showsCheck(request)) return;
      await setCheck(request, bitbucket(request), options, endWithoutReview(request));
    });
  },
});

export default bitbucketPlugin;
