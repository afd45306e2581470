/**
 * @webhook-gateway/deliver-bitbucket: the `bitbucket_comment` and `bitbucket_review` targets,
 * answering on Bitbucket Cloud pull requests through its REST API (`/2.0`), and the
 * `platforms.bitbucket` slice they read.
 */
import { definePlugin, lazyTap, settingsIn } from '@webhook-gateway/core';
import { checkedExtra, finalCheck } from '@webhook-gateway/deliver-forge-comment/comments';
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
  setup({ hooks, log, currentConfig }, options) {
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
    // check: true: INPROGRESS as each attempt starts, and the end of a delivery that posted nothing.
    const targets: readonly string[] = BITBUCKET_TARGETS;
    const setCheck = lazyTap(() => import('./commit-status.js'), 'setBitbucketCheck');
    hooks.admit.tapPromise(DELIVER_BITBUCKET_PLUGIN_NAME, async (request) => {
      const { routeConfig, delivery } = request;
      const extra = checkedExtra(routeConfig, targets, delivery.payload);
      if (extra === undefined) return undefined;
      const subject = {
        settings: settingsIn({ platforms }, request.config).bitbucket,
        options,
        target: routeConfig.deliver,
        route: delivery.route,
        extra,
        payload: delivery.payload,
        log: request.log,
        signal: request.signal,
      };
      await setCheck(subject, 'pending', 'The review is running');
      return undefined;
    });
    hooks.attemptFinished.tap(DELIVER_BITBUCKET_PLUGIN_NAME, (event) => {
      const final = finalCheck(event);
      if (final === undefined) return;
      const live = currentConfig();
      const routeConfig = live.platforms.webhook.extra.routes[event.record.route];
      const extra = checkedExtra(routeConfig, targets, event.record.payload);
      if (extra === undefined || routeConfig === undefined) return;
      const subject = {
        settings: settingsIn({ platforms }, live).bitbucket,
        options,
        target: routeConfig.deliver,
        route: event.record.route,
        extra,
        payload: event.record.payload,
        log,
        signal: new AbortController().signal,
      };
      // An observation hook: the status is set in the background, its failure logged there.
      void setCheck(subject, final.state, final.description);
    });
  },
});

export default bitbucketPlugin;
