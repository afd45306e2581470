/**
 * @webhook-gateway/deliver-gitea: the `gitea_comment` and `gitea_review` targets, answering on
 * Gitea and Forgejo pull requests through their REST API (`/api/v1`), and the `platforms.gitea`
 * slice they read.
 */
import { definePlugin, lazyTap, settingsIn } from '@webhook-gateway/core';
import { checkedExtra, finalCheck } from '@webhook-gateway/deliver-forge-comment/comments';
import { checkAtStart, httpTargetOptionsSchema } from '@webhook-gateway/target-kit';
import { giteaConfigProblems } from './config-problems.js';
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
  setup({ hooks, log, config, serving, settings, currentConfig }, options) {
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
    // check: true: `pending` as each attempt starts, and the end of a delivery that posted nothing.
    const targets: readonly string[] = GITEA_TARGETS;
    const setCheck = lazyTap(() => import('./commit-status.js'), 'setGiteaCheck');
    hooks.admit.tapPromise(DELIVER_GITEA_PLUGIN_NAME, async (request) => {
      const { routeConfig, delivery } = request;
      const extra = checkedExtra(routeConfig, targets, delivery.payload);
      if (extra === undefined) return undefined;
      const subject = {
        settings: settingsIn({ platforms }, request.config).gitea,
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
    hooks.attemptFinished.tap(DELIVER_GITEA_PLUGIN_NAME, (event) => {
      const final = finalCheck(event);
      if (final === undefined) return;
      const live = currentConfig();
      const routeConfig = live.platforms.webhook.extra.routes[event.record.route];
      const extra = checkedExtra(routeConfig, targets, event.record.payload);
      if (extra === undefined || routeConfig === undefined) return;
      const subject = {
        settings: settingsIn({ platforms }, live).gitea,
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
    if (!serving) return;
    return checkAtStart(options, async (check) => {
      const routes = Object.values(config.platforms.webhook.extra.routes);
      // Nothing to check (nor to load) unless a route delivers to Gitea.
      if (!routes.some((route) => targets.includes(route.deliver))) return;
      const { logGiteaConnection } = await import('./connection-check.js');
      await logGiteaConnection(settings().gitea, log, check);
    });
  },
});

export default giteaPlugin;
