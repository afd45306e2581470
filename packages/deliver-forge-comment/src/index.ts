/**
 * @webhook-gateway/deliver-forge-comment: the `forge_comment` and `forge_review` (gh), and the
 * `altforge_comment` and `altforge_review` (glab) delivery targets.
 */
import {
  definePlugin,
  lazyTap,
  settingsIn,
  type FilterRequest,
  type FilterVerdict,
  type GatewayConfig,
} from '@webhook-gateway/core';
import { platformsToAsk } from './accounts-to-ask.js';
import { commentModeProblems } from './living-comment.js';
import type { PermissionCache } from './permission.js';
import { altforgeSettingsSchema, forgeSettingsSchema } from './settings.js';
import {
  ALTFORGE_REVIEW_TARGET,
  ALTFORGE_TARGET,
  FORGE_REVIEW_TARGET,
  FORGE_TARGET,
} from './target-names.js';

export const DELIVER_FORGE_COMMENT_PLUGIN_NAME = '@webhook-gateway/deliver-forge-comment';

/**
 * Taps `hooks.deliver.for(…)` for `forge_comment`, `forge_review`, `altforge_comment` and
 * `altforge_review`, and owns the `platforms.forge` and `platforms.altforge` config slices they
 * read.
 *
 * @example
 * // config.yaml
 * // platforms:
 * //   webhook: { extra: { routes: { reviews: { deliver: forge_comment,
 * //     deliver_extra: { repo: "{repository.full_name}", pr_number: "{number}" } } } } }
 * //   forge: { cli: gh, token: "${GH_TOKEN}" }
 */
const forgeCommentPlugin = definePlugin({
  name: DELIVER_FORGE_COMMENT_PLUGIN_NAME,
  provides: {
    targets: [FORGE_TARGET, FORGE_REVIEW_TARGET, ALTFORGE_TARGET, ALTFORGE_REVIEW_TARGET],
  },
  platforms: { forge: forgeSettingsSchema, altforge: altforgeSettingsSchema },
  check: (config) => commentModeProblems(config, [FORGE_TARGET, ALTFORGE_TARGET]),
  setup({ hooks, config, serving, log }) {
    // The slices of the attempt's config, so a reload applies to the next delivery.
    const settings = (config: GatewayConfig) => settingsIn(forgeCommentPlugin, config);
    // Each target's code, the forge API calls and the loop guard's asking are imported at first
    // use: a gateway whose config uses none of them never loads them.

    // Loop guard: comments written by the gateway's own accounts (asked once at start, and only
    // when a route can start a loop).
    let ownComment: ((request: FilterRequest) => FilterVerdict | undefined) | undefined;
    hooks.filter.tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, (request) =>
      Promise.resolve(ownComment?.(request)),
    );

    // Command routes: the commenter's role, asked in the worker before the agent runs.
    let permissions: PermissionCache | undefined;
    hooks.admit.tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
      if ((request.routeConfig.commands ?? []).length === 0) return undefined;
      const [{ checkCommandPermission, PermissionCache }, { altforgeApiClient, forgeApiClient }] =
        await Promise.all([import('./permission.js'), import('./forge-api.js')]);
      permissions ??= new PermissionCache();
      const slices = settings(request.config);
      return checkCommandPermission(
        request,
        { forge: forgeApiClient(slices.forge), altforge: altforgeApiClient(slices.altforge) },
        permissions,
      );
    });
    const deliverForgeComment = lazyTap(
      () => import('./deliver-forge-comment.js'),
      'deliverForgeComment',
    );
    const deliverForgeReview = lazyTap(
      () => import('./deliver-forge-review.js'),
      'deliverForgeReview',
    );
    const deliverAltforgeComment = lazyTap(
      () => import('./deliver-altforge-comment.js'),
      'deliverAltforgeComment',
    );
    const deliverAltforgeReview = lazyTap(
      () => import('./deliver-altforge-review.js'),
      'deliverAltforgeReview',
    );
    hooks.deliver
      .for(FORGE_TARGET)
      .tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, (request) =>
        deliverForgeComment(request, settings(request.config).forge),
      );
    hooks.deliver
      .for(FORGE_REVIEW_TARGET)
      .tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
        await deliverForgeReview(request, settings(request.config).forge);
      });
    hooks.deliver
      .for(ALTFORGE_TARGET)
      .tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, (request) =>
        deliverAltforgeComment(request, settings(request.config).altforge),
      );
    hooks.deliver
      .for(ALTFORGE_REVIEW_TARGET)
      .tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
        await deliverAltforgeReview(request, settings(request.config).altforge);
      });

    return {
      async start() {
        if (!serving) return;
        const ask = platformsToAsk(config);
        if (!ask.forge && !ask.altforge) return;
        const [{ askOwnAccounts, ownCommentVerdict }, { altforgeApiClient, forgeApiClient }] =
          await Promise.all([import('./own-account.js'), import('./forge-api.js')]);
        const slices = settings(config);
        const accounts = await askOwnAccounts(
          {
            ...(ask.forge ? { forge: forgeApiClient(slices.forge) } : {}),
            ...(ask.altforge ? { altforge: altforgeApiClient(slices.altforge) } : {}),
          },
          log,
        );
        ownComment = (request) => ownCommentVerdict(accounts, request);
      },
    };
  },
});

export default forgeCommentPlugin;

export {
  ALTFORGE_REVIEW_TARGET,
  ALTFORGE_TARGET,
  FORGE_REVIEW_TARGET,
  FORGE_TARGET,
} from './target-names.js';
export {
  forgeSettingsSchema,
  altforgeSettingsSchema,
  type ForgeSettings,
  type AltforgeSettings,
} from './settings.js';
