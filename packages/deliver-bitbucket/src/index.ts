/**
 * @webhook-gateway/deliver-bitbucket: the `bitbucket_comment` and `bitbucket_review` targets,
 * answering on Bitbucket Cloud (`/2.0`) and Bitbucket Data Center (`/rest/api/1.0`) pull
 * requests through their REST APIs, the review context of both's deliveries (`reviewContext`),
 * the `platforms.bitbucket` slice they read, and for
 * Bitbucket's comments (Cloud's and Data Center's) the command routes' permission check and the
 * loop guard's account.
 */
import { definePlugin, lazyTap, settingsIn } from '@webhook-gateway/core';
import {
  loopCanStart,
  tapCheckStatus,
  tapCommandPermission,
  tapReviewContext,
  tapWaitingLivingComment,
} from '@webhook-gateway/deliver-forge-comment/comments';
import { httpTargetOptionsSchema } from '@webhook-gateway/target-kit';
import { bitbucketConfigProblems } from './config-problems.js';
import type { BitbucketOwnAccounts } from './own-account.js';
import { isBitbucketSender } from './sender.js';
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
 * //   bitbucket: { token: "${BITBUCKET_TOKEN}" }  # Cloud
 * //   # Data Center: bitbucket: { data_center: { base_url: https://bitbucket.example.com,
 * //   #   token: "${BITBUCKET_DATA_CENTER_TOKEN}" } }
 * //   webhook: { extra: { routes: { reviews: { deliver: bitbucket_comment,
 * //     deliver_extra: { mode: update } } } } }
 */
const bitbucketPlugin = definePlugin({
  name: DELIVER_BITBUCKET_PLUGIN_NAME,
  provides: { targets: [BITBUCKET_COMMENT_TARGET, BITBUCKET_REVIEW_TARGET] },
  platforms,
  options: httpTargetOptionsSchema,
  // At start, at reload and by `config validate`: a route delivering to Bitbucket without the
  // token (or Data Center's address) its events need, or with a mode that is not `new` or `update`.
  check: (config) => bitbucketConfigProblems(settingsIn({ platforms }, config).bitbucket, config),
  setup({ hooks, log, config, serving, settings }, options) {
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
    // Reviews: the pull request's diff, rules and guidance for the template, over the REST API;
    // base files kept per instance, repository and base commit. Loaded at the first review.
    const prepareContext = lazyTap(
      () => import('./review-context.js'),
      'prepareBitbucketReviewContext',
    );
    tapReviewContext(hooks, DELIVER_BITBUCKET_PLUGIN_NAME, (request, baseFiles) =>
      prepareContext(
        request,
        settingsIn({ platforms }, request.config).bitbucket,
        options,
        baseFiles,
      ),
    );
    // Command routes: a Cloud or Data Center commenter's permission on the repository, asked in
    // the worker before the agent runs, for Bitbucket's deliveries (the forge plugin asks for the
    // forge's); the loop guard: comments the token's account wrote (Cloud's `GET /user`, Data
    // Center's `X-AUSERNAME`, once per token) or that Bitbucket's `bot`, on the routes where a
    // loop can start: command routes, those answering on Bitbucket.
    const checkPermission = lazyTap(
      () => import('./command-permission.js'),
      'checkBitbucketCommandPermission',
    );
    const targets: readonly string[] = BITBUCKET_TARGETS;
    let ownAccounts: BitbucketOwnAccounts | undefined;
    const ownAccountsNow = async () => {
      const { BitbucketOwnAccounts } = await import('./own-account.js');
      ownAccounts ??= new BitbucketOwnAccounts(options, log);
      return ownAccounts;
    };
    tapCommandPermission(hooks, DELIVER_BITBUCKET_PLUGIN_NAME, targets, {
      isSender: (delivery, deliver) =>
        isBitbucketSender(delivery.authScheme, delivery.event, deliver),
      check: (request, cache) =>
        checkPermission(
          request,
          settingsIn({ platforms }, request.config).bitbucket,
          options,
          cache,
        ),
      isOwn: async (request) => (await ownAccountsNow()).isOwn(request, settings().bitbucket),
    });
    // check: true: the review's check as a build status, in progress from the attempt's
    // start until the review is out (the target) or the delivery ended without it.
    const setCheck = lazyTap(() => import('./commit-status.js'), 'setBitbucketCheck');
    tapCheckStatus(hooks, DELIVER_BITBUCKET_PLUGIN_NAME, BITBUCKET_TARGETS, (request, status) =>
      setCheck(request, settingsIn({ platforms }, request.config).bitbucket, options, status),
    );
    // mode: update: a queued review's place at the top of the living comment, on Cloud and
    // Data Center alike (the payload tells which).
    tapWaitingLivingComment(
      hooks,
      DELIVER_BITBUCKET_PLUGIN_NAME,
      [BITBUCKET_COMMENT_TARGET],
      async (request, extra) => {
        const { bitbucketLivingComment } = await import('./deliver-bitbucket-comment.js');
        return bitbucketLivingComment(
          request,
          extra,
          settingsIn({ platforms }, request.config).bitbucket,
          options,
        );
      },
    );
    // The loop guard's account asked at start, not at the first comment, where a loop can start.
    if (!serving) return;
    return {
      async start() {
        const bitbucket = settings().bitbucket;
        if (!loopCanStart(config, targets)) return;
        if (bitbucket.token !== undefined) await (await ownAccountsNow()).names(bitbucket);
        if (bitbucket.data_center?.token !== undefined) {
          await (await ownAccountsNow()).dataCenterNames(bitbucket);
        }
      },
    };
  },
});

export default bitbucketPlugin;
