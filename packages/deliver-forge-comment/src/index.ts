/**
 * @webhook-gateway/deliver-forge-comment: the `forge_comment` and `forge_review` (gh), and the
 * `altforge_comment` and `altforge_review` (glab) delivery targets.
 */
import { definePlugin, settingsIn, type GatewayConfig } from '@webhook-gateway/core';
import { altforgeApiClient, forgeApiClient } from './forge-api.js';
import {
  askOwnAccounts,
  ownCommentVerdict,
  platformsToAsk,
  type OwnAccounts,
} from './own-account.js';
import { checkCommandPermission, PermissionCache } from './permission.js';
import { ALTFORGE_TARGET } from './altforge-target.js';
import { deliverAltforgeComment } from './deliver-altforge-comment.js';
import { ALTFORGE_REVIEW_TARGET, deliverAltforgeReview } from './deliver-altforge-review.js';
import { deliverForgeComment } from './deliver-forge-comment.js';
import { deliverForgeReview, FORGE_REVIEW_TARGET } from './deliver-forge-review.js';
import { FORGE_TARGET } from './forge-target.js';
import { commentModeProblems } from './living-comment.js';
import { altforgeSettingsSchema, forgeSettingsSchema } from './settings.js';

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

    // Loop guard: comments written by the gateway's own accounts (asked once at start).
    let accounts: OwnAccounts = {};
    hooks.filter.tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, (request) =>
      Promise.resolve(ownCommentVerdict(accounts, request)),
    );

    // Command routes: the commenter's role, asked in the worker before the agent runs.
    const permissions = new PermissionCache();
    hooks.admit.tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, (request) => {
      const slices = settings(request.config);
      return checkCommandPermission(
        request,
        { forge: forgeApiClient(slices.forge), altforge: altforgeApiClient(slices.altforge) },
        permissions,
      );
    });
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
        const slices = settings(config);
        accounts = await askOwnAccounts(
          {
            ...(ask.forge ? { forge: forgeApiClient(slices.forge) } : {}),
            ...(ask.altforge ? { altforge: altforgeApiClient(slices.altforge) } : {}),
          },
          log,
        );
      },
    };
  },
});

export default forgeCommentPlugin;

export { splitForComments, chunkText } from './split.js';
export { commentBodies, EMPTY_ANSWER_PLACEHOLDER } from './comment-bodies.js';
export { CommentDeliveryError, type DeliveryFailureReason } from './errors.js';
export {
  FORGE_TARGET,
  resolveForgePullRequest,
  isForgeRepoName,
  type ForgePullRequest,
} from './forge-target.js';
export {
  ALTFORGE_TARGET,
  resolveAltforgeMergeRequest,
  isAltforgeProjectPath,
  type AltforgeMergeRequest,
} from './altforge-target.js';
export { FORGE_COMMENT_LIMIT, forgeCommentArgv, forgeEnv } from './forge-cli.js';
export { ALTFORGE_NOTE_LIMIT, altforgeNoteArgv, altforgeEnv } from './altforge-cli.js';
export {
  forgeSettingsSchema,
  altforgeSettingsSchema,
  type ForgeSettings,
  type AltforgeSettings,
} from './settings.js';
export { deliverForgeComment } from './deliver-forge-comment.js';
export { deliverForgeReview, FORGE_REVIEW_TARGET } from './deliver-forge-review.js';
export { deliverAltforgeComment } from './deliver-altforge-comment.js';
export { deliverAltforgeReview, ALTFORGE_REVIEW_TARGET } from './deliver-altforge-review.js';
