/**
 * @webhook-gateway/deliver-gitea: the `gitea_comment` and `gitea_review` targets, answering on
 * Gitea and Forgejo pull requests through their REST API (`/api/v1`), the `platforms.gitea`
 * slice they read, and for Gitea's comments the command routes' permission check and the loop
 * guard's account.
 */
import { definePlugin, lazyTap, settingsIn } from '@webhook-gateway/core';
import {
  loopCanStart,
  tapCheckStatus,
  tapCommandPermission,
  tapReviewContext,
  tapWaitingLivingComment,
} from '@webhook-gateway/deliver-forge-comment/comments';
import { checkAtStart, httpTargetOptionsSchema } from '@webhook-gateway/target-kit';
import { giteaConfigProblems } from './config-problems.js';
import type { GiteaOwnAccounts } from './own-account.js';
import { isGiteaSender } from './sender.js';
import { giteaSettingsSchema } from './settings.js';
import { GITEA_COMMENT_TARGET, GITEA_REVIEW_TARGET, GITEA_TARGETS } from './target-names.js';

export { giteaSettingsSchema, giteaApiBase, type GiteaSettings } from './settings.js';
export { giteaConfigProblems } from './config-problems.js';
export { GITEA_COMMENT_TARGET, GITEA_REVIEW_TARGET } from './target-names.js';
/** The plugin's options: those of every target that calls an HTTP service (in target-kit). */
export {
  httpTargetOptionsSchema as giteaOptionsSchema,
  type HttpTargetOptions as GiteaOptions,
} from '@webhook-gateway/target-kit';

export const DELIVER_GITEA_PLUGIN_NAME = '@webhook-gateway/deliver-gitea';

/**
 * The plugin. Its delivery code (`./delivery`) is imported at the first delivery, and the
 * start-time check only when a route delivers to Gitea.
 *
 * @example
 * // config.yaml
 * // platforms:
 * //   gitea: { base_url: "https://gitea.example.com", token: "${GITEA_TOKEN}", bot: review-bot }
 * //   webhook: { extra: { routes: { reviews: { deliver: gitea_comment,
 * //     deliver_extra: { mode: update } } } } }
 */
/** The slice this plugin owns (named apart, so its check reads it without the plugin). */
const platforms = { gitea: giteaSettingsSchema };

const giteaPlugin = definePlugin({
  name: DELIVER_GITEA_PLUGIN_NAME,
  provides: { targets: [GITEA_COMMENT_TARGET, GITEA_REVIEW_TARGET] },
  platforms,
  options: httpTargetOptionsSchema,
  // At start, at reload and by `config validate`: a route delivering to Gitea without its address
  // or token, or with a mode that is not `new` or `update`.
  check: (config) => giteaConfigProblems(settingsIn({ platforms }, config).gitea, config),
  setup({ hooks, log, config, serving, settings }, options) {
    const deliverComment = lazyTap(
      () => import('./deliver-gitea-comment.js'),
      'deliverGiteaComment',
    );
    const deliverReview = lazyTap(() => import('./deliver-gitea-review.js'), 'deliverGiteaReview');
    // The slice of the attempt's config, so a reload applies to the next delivery.
    hooks.deliver
      .for(GITEA_COMMENT_TARGET)
      .tapPromise(DELIVER_GITEA_PLUGIN_NAME, (request) =>
        deliverComment(request, settingsIn({ platforms }, request.config).gitea, options),
      );
    hooks.deliver
      .for(GITEA_REVIEW_TARGET)
      .tapPromise(DELIVER_GITEA_PLUGIN_NAME, async (request) => {
        await deliverReview(request, settingsIn({ platforms }, request.config).gitea, options);
      });
    // Reviews: the pull request's diff, rules and guidance for the template, over the REST API;
    // base files kept per instance, repository and base commit. Loaded at the first review.
    const prepareContext = lazyTap(
      () => import('./review-context.js'),
      'prepareGiteaReviewContext',
    );
    tapReviewContext(hooks, DELIVER_GITEA_PLUGIN_NAME, (request, baseFiles) =>
      prepareContext(request, settingsIn({ platforms }, request.config).gitea, options, baseFiles),
    );
    // Command routes: the commenter's permission on the repository, asked in the worker before
    // the agent runs, for Gitea's deliveries (the forge plugin asks for the forge's); the loop
    // guard: comments the token's account wrote (`GET /user`, asked once per token), on the
    // routes where a loop can start: command routes, and those answering on Gitea.
    const checkPermission = lazyTap(
      () => import('./command-permission.js'),
      'checkGiteaCommandPermission',
    );
    const targets: readonly string[] = GITEA_TARGETS;
    let ownAccounts: GiteaOwnAccounts | undefined;
    const ownAccountsNow = async () => {
      const { GiteaOwnAccounts } = await import('./own-account.js');
      ownAccounts ??= new GiteaOwnAccounts(options, log);
      return ownAccounts;
    };
    tapCommandPermission(hooks, DELIVER_GITEA_PLUGIN_NAME, targets, {
      isSender: (delivery, deliver) =>
        isGiteaSender(delivery.authScheme, delivery.payload, deliver),
      check: (request, cache) =>
        checkPermission(request, settingsIn({ platforms }, request.config).gitea, options, cache),
      isOwn: async (request) => (await ownAccountsNow()).isOwn(request, settings().gitea),
    });
    // check: true: the review's check as a commit status, in progress from the attempt's
    // start until the review is out (the target) or the delivery ended without it.
    const setCheck = lazyTap(() => import('./commit-status.js'), 'setGiteaCheck');
    tapCheckStatus(hooks, DELIVER_GITEA_PLUGIN_NAME, GITEA_TARGETS, (request, status) =>
      setCheck(request, settingsIn({ platforms }, request.config).gitea, options, status),
    );
    // mode: update: a queued review's place at the top of the living comment.
    tapWaitingLivingComment(
      hooks,
      DELIVER_GITEA_PLUGIN_NAME,
      [GITEA_COMMENT_TARGET],
      async (request, extra) => {
        const { giteaLivingComment } = await import('./deliver-gitea-comment.js');
        return giteaLivingComment(
          request,
          extra,
          settingsIn({ platforms }, request.config).gitea,
          options,
        );
      },
    );
    if (!serving) return;
    return checkAtStart(options, async (check) => {
      // The loop guard's account asked now, not at the first comment, where a loop can start.
      if (loopCanStart(config, targets) && settings().gitea.token !== undefined) {
        await (await ownAccountsNow()).names(settings().gitea);
      }
      const routes = Object.values(config.platforms.webhook.extra.routes);
      // Nothing to check (nor to load) unless a route delivers to Gitea.
      if (!routes.some((route) => targets.includes(route.deliver))) return;
      const { logGiteaConnection } = await import('./connection-check.js');
      await logGiteaConnection(settings().gitea, log, check);
    });
  },
});

export default giteaPlugin;
