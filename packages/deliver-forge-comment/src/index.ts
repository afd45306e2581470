/**
 * @webhook-gateway/deliver-forge-comment: the `forge_comment` and `forge_review` (gh), and the
 * `altforge_comment` and `altforge_review` (glab) delivery targets.
 */
import {
  definePlugin,
  lazyTap,
  lookupPath,
  settingsIn,
  type DeliverRequest,
  type FilterRequest,
  type FilterVerdict,
  type GatewayConfig,
  type LineComment,
} from '@webhook-gateway/core';
import { platformsToAsk } from './accounts-to-ask.js';
import type { AppSessions } from './app-session.js';
import type { BaseFiles } from './base-files.js';
import { installationEvent } from './installation-events.js';
import { checkSettingProblems } from './check-settings.js';
import { commentModeProblems } from './living-comment.js';
import { tapWaitingLivingComment } from './waiting-living-comment-tap.js';
import type { PermissionCache } from './command-admission.js';
import { altforgeSettingsSchema, forgeSettingsSchema, type ForgeSettings } from './settings.js';
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
const FORGE_COMMENT_TARGETS: readonly string[] = [
  FORGE_TARGET,
  FORGE_REVIEW_TARGET,
  ALTFORGE_TARGET,
  ALTFORGE_REVIEW_TARGET,
];

const forgeCommentPlugin = definePlugin({
  name: DELIVER_FORGE_COMMENT_PLUGIN_NAME,
  provides: { targets: [...FORGE_COMMENT_TARGETS] },
  platforms: { forge: forgeSettingsSchema, altforge: altforgeSettingsSchema },
  check: (config) => [
    ...commentModeProblems(config, [FORGE_TARGET, ALTFORGE_TARGET]),
    ...checkSettingProblems(config, FORGE_COMMENT_TARGETS),
  ],
  async setup({ hooks, config, serving, log, home }) {
    // The slices of the attempt's config, so a reload applies to the next delivery.
    const settings = (config: GatewayConfig) => settingsIn(forgeCommentPlugin, config);
    // Each target's code, the forge API calls and the loop guard's asking are imported at first
    // use: a gateway whose config uses none of them never loads them.

    // The GitHub App: its key checked now (at start, at reload, by `config validate`), and every
    // delivery given an installation token for its repository.
    let appSessions: AppSessions | undefined;
    if (settings(config).forge.app) {
      const { checkAppKey } = await import('./app-key.js');
      checkAppKey(settings(config).forge, home, log);
    }
    hooks.credentials.tapPromise(
      DELIVER_FORGE_COMMENT_PLUGIN_NAME,
      async (credentials, request) => {
        const { forge, altforge } = settings(request.config);
        // The altforge: the project's token from platforms.altforge.tokens.
        const project = lookupPath(request.delivery.payload, 'project.path_with_namespace');
        if (altforge.tokens && typeof project === 'string') {
          const { altforgeTokenFor } = await import('./altforge-tokens.js');
          const token = altforgeTokenFor(altforge, project);
          if (token) credentials = { ...credentials, GITLAB_TOKEN: token };
        }
        if (!forge.app) return credentials;
        const [{ appCredentials }, { AppSessions }] = await Promise.all([
          import('./app-credentials.js'),
          import('./app-session.js'),
        ]);
        appSessions ??= new AppSessions(home);
        return { ...credentials, ...(await appCredentials(request, forge, appSessions)) };
      },
    );

    // Loop guard: comments written by the gateway's own accounts (asked once at start, and only
    // when a route can start a loop).
    let ownComment: ((request: FilterRequest) => FilterVerdict | undefined) | undefined;
    hooks.filter.tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, (request) =>
      Promise.resolve(installationEvent(request, log) ?? ownComment?.(request)),
    );

    // Command routes: the commenter's role, asked in the worker before the agent runs.
    let permissions: PermissionCache | undefined;
    hooks.admit.tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
      if ((request.routeConfig.commands ?? []).length === 0) return undefined;
      const [
        { checkCommandPermission },
        { PermissionCache },
        { altforgeApiClient, forgeApiClient },
      ] = await Promise.all([
        import('./permission.js'),
        import('./command-admission.js'),
        import('./forge-api.js'),
      ]);
      permissions ??= new PermissionCache();
      const slices = settings(request.config);
      return checkCommandPermission(
        request,
        {
          forge: () => forgeApiClient(slices.forge, request.credentials),
          altforge: () => altforgeApiClient(slices.altforge, request.credentials),
        },
        permissions,
      );
    });
    // Reviews: the pull or merge request's diff, rules and guidance for the template, read
    // through gh or glab; base files kept per repository and base commit.
    let baseFiles: BaseFiles | undefined;
    hooks.reviewContext.tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
      const [{ prepareReviewContext }, { BaseFiles }] = await Promise.all([
        import('./review-context.js'),
        import('./base-files.js'),
      ]);
      baseFiles ??= new BaseFiles();
      return prepareReviewContext(request, settings(request.config), baseFiles);
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
    // The App's bot, `<slug>[bot]` (`GET /app`, asked once per App session): the living comment
    // edits only comments it wrote.
    const appBot = (forge: ForgeSettings) => async () => {
      const { AppSessions } = await import('./app-session.js');
      appSessions ??= new AppSessions(home);
      if (!forge.app) throw new Error('platforms.forge.app is not set');
      const { client } = appSessions.get(forge.app, forge);
      return `${(await client.identity()).slug}[bot]`;
    };
    // `deliver_extra.check: true`: the review's state on the forge (a check run or a commit
    // status), in progress from the attempt's start until the review is out or has failed.
    // Asked before loading anything: a gateway with no check never loads the check's code.
    const asksCheck = (deliverExtra: Record<string, unknown>) => deliverExtra.check === true;
    hooks.attemptStarted.tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
      if (!asksCheck(request.routeConfig.deliver_extra)) return;
      const { routeShowsCheck, startCheck } = await import('./review-check.js');
      if (routeShowsCheck(request.routeConfig)) {
        await startCheck(request, settings(request.config));
      }
    });
    hooks.routeShowsWaiting.tap(DELIVER_FORGE_COMMENT_PLUGIN_NAME, (route) =>
      asksCheck(route.deliver_extra) && FORGE_COMMENT_TARGETS.includes(route.deliver)
        ? true
        : undefined,
    );
    hooks.deliveryWaiting.tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
      if (!asksCheck(request.routeConfig.deliver_extra)) return;
      const { routeShowsCheck, showQueuedCheck } = await import('./review-check.js');
      if (routeShowsCheck(request.routeConfig)) {
        await showQueuedCheck(request, settings(request.config));
      }
    });
    // `deliver_extra.mode: update`: a queued review's place at the top of the living comment.
    tapWaitingLivingComment(
      hooks,
      DELIVER_FORGE_COMMENT_PLUGIN_NAME,
      [FORGE_TARGET, ALTFORGE_TARGET],
      async (request, extra) => {
        if (request.routeConfig.deliver === ALTFORGE_TARGET) {
          const [{ altforgeLivingComment }, { ALTFORGE_NOTE_LIMIT }] = await Promise.all([
            import('./deliver-altforge-comment.js'),
            import('./altforge-cli.js'),
          ]);
          const api = altforgeLivingComment(request, extra, settings(request.config).altforge);
          return { api, limit: ALTFORGE_NOTE_LIMIT };
        }
        const [{ forgeLivingComment }, { FORGE_COMMENT_LIMIT }] = await Promise.all([
          import('./deliver-forge-comment.js'),
          import('./forge-cli.js'),
        ]);
        const { forge } = settings(request.config);
        const bot = forge.app ? appBot(forge) : undefined;
        return {
          api: await forgeLivingComment(request, extra, forge, bot),
          limit: FORGE_COMMENT_LIMIT,
        };
      },
    );
    hooks.deliveryEnded.tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
      if (!asksCheck(request.routeConfig.deliver_extra)) return;
      const { routeShowsCheck, endCheckWithoutReview } = await import('./review-check.js');
      if (routeShowsCheck(request.routeConfig)) {
        await endCheckWithoutReview(request, settings(request.config));
      }
    });
    /** Ends the check of a delivered review; `placed` says which comments sit on their lines. */
    const endCheck = async (
      request: DeliverRequest,
      placed: (comments: readonly LineComment[]) => Promise<readonly LineComment[]>,
    ): Promise<void> => {
      if (!asksCheck(request.extra)) return;
      const { endCheckAfterReview } = await import('./review-check.js');
      await endCheckAfterReview(request, settings(request.config), placed);
    };
    /** Of a forge target's comments, those on lines the diff shows (asked only with the App). */
    const inForgeDiff = (request: DeliverRequest) => async (comments: readonly LineComment[]) => {
      const [{ commentsInDiff }, { subjectForDelivery }] = await Promise.all([
        import('./forge-check.js'),
        import('./review-check.js'),
      ]);
      return commentsInDiff(subjectForDelivery(request), settings(request.config).forge, comments);
    };
    const allPlaced = async (comments: readonly LineComment[]) => comments;
    hooks.deliver
      .for(FORGE_TARGET)
      .tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
        const { forge } = settings(request.config);
        await deliverForgeComment(request, forge, forge.app ? appBot(forge) : undefined);
        await endCheck(request, inForgeDiff(request));
      });
    hooks.deliver
      .for(FORGE_REVIEW_TARGET)
      .tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
        const outcome = await deliverForgeReview(request, settings(request.config).forge);
        // The review placed them all, or none; else the diff says which it placed.
        await endCheck(request, async (comments) =>
          outcome.moved === 0
            ? comments
            : outcome.onLines === 0
              ? []
              : inForgeDiff(request)(comments),
        );
      });
    hooks.deliver
      .for(ALTFORGE_TARGET)
      .tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
        await deliverAltforgeComment(request, settings(request.config).altforge);
        await endCheck(request, allPlaced);
      });
    hooks.deliver
      .for(ALTFORGE_REVIEW_TARGET)
      .tapPromise(DELIVER_FORGE_COMMENT_PLUGIN_NAME, async (request) => {
        await deliverAltforgeReview(request, settings(request.config).altforge);
        await endCheck(request, allPlaced);
      });

    return {
      async start() {
        if (!serving) return;
        const ask = platformsToAsk(config);
        if (!ask.forge && !ask.altforge) return;
        const [{ askOwnAccounts, ownCommentVerdict }, { altforgeClients, forgeApiClient }] =
          await Promise.all([import('./own-account.js'), import('./forge-api.js')]);
        const slices = settings(config);
        const app = slices.forge.app;
        let forgeApp: (() => Promise<string>) | undefined;
        if (app && ask.forge) {
          const { AppSessions } = await import('./app-session.js');
          appSessions ??= new AppSessions(home);
          const { client } = appSessions.get(app, slices.forge);
          forgeApp = async () => `${(await client.identity()).slug}[bot]`;
        }
        const accounts = await askOwnAccounts(
          {
            ...(forgeApp ? { forgeApp } : ask.forge ? { forge: forgeApiClient(slices.forge) } : {}),
            ...(ask.altforge ? { altforge: altforgeClients(slices.altforge) } : {}),
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
