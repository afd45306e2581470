/** The `forge_comment` target: the answer as a comment on a pull request, through `gh`. */
import type { DeliverRequest, DeliveryStateRequest } from '@webhook-gateway/core';
import { commentBodies } from './comment-bodies.js';
import {
  FORGE_COMMENT_LIMIT,
  FORGE_PROFILE,
  forgeCommentArgv,
  forgeEnv,
  forgeHostOf,
  forgeSecrets,
} from './forge-cli.js';
import { resolveForgePullRequest } from './forge-target.js';
import { FORGE_TARGET } from './target-names.js';
import { cliApi } from './cli-api.js';
import { forgeLivingCommentApi } from './forge-living-comment.js';
import {
  commentMode,
  livingPartLimit,
  updateLivingComment,
  type LivingCommentApi,
} from './living-comment.js';
import { postComments } from './post-comments.js';
import type { ForgeSettings } from './settings.js';

/**
 * Runs `gh pr comment <n> --repo <owner/repo> --body-file -` once per comment body, with the
 * plugin's `platforms.forge` settings; with `deliver_extra.mode: update`, edits the route's own
 * comments through `gh api` instead. With `platforms.forge.app`, `appBot` names the App's bot
 * (`<slug>[bot]`, from `GET /app`): the living comment then counts only that account's comments
 * as its own.
 * Throws a `CommentDeliveryError` (the worker retries) when the target is invalid or gh fails.
 */
export async function deliverForgeComment(
  request: DeliverRequest,
  settings: ForgeSettings,
  appBot?: () => Promise<string>,
): Promise<void> {
  const pullRequest = resolveForgePullRequest(request.extra, request.delivery.payload);
  const host = forgeHostOf(settings) ?? FORGE_PROFILE.defaultHost;
  const env = forgeEnv(settings, request.credentials);
  const secrets = forgeSecrets(env);
  const subject = `pull request #${pullRequest.prNumber} of ${pullRequest.repo}`;
  if (commentMode(FORGE_TARGET, request.extra) === 'update') {
    const route = request.delivery.route;
    const outcome = await updateLivingComment(
      await forgeLivingComment(request, request.extra, settings, appBot),
      route,
      commentBodies(
        request.answer,
        livingPartLimit(FORGE_COMMENT_LIMIT, route),
        request.delivery.deliveryId,
      ),
    );
    request.log.info(
      { target: FORGE_TARGET, repo: pullRequest.repo, pr_number: pullRequest.prNumber, ...outcome },
      'updated the living pull request comment',
    );
    return;
  }
  const bodies = commentBodies(request.answer, FORGE_COMMENT_LIMIT, request.delivery.deliveryId);
  await postComments({
    profile: FORGE_PROFILE,
    cli: settings.cli,
    args: forgeCommentArgv(pullRequest),
    env,
    host,
    timeoutS: settings.timeout_s,
    subject,
    bodies,
    secrets,
    signal: request.signal,
  });
  request.log.info(
    {
      target: FORGE_TARGET,
      repo: pullRequest.repo,
      pr_number: pullRequest.prNumber,
      comments: bodies.length,
    },
    'posted the answer as a pull request comment',
  );
}

/**
 * The route's living comment on the delivery's pull request, through `gh api` (`extra` is
 * `deliver_extra` rendered against the payload). As a GitHub App, only the App's bot's comments
 * are its own (`appBot`).
 */
export async function forgeLivingComment(
  request: Pick<DeliveryStateRequest, 'delivery' | 'credentials' | 'signal'>,
  extra: Record<string, unknown>,
  settings: ForgeSettings,
  appBot?: () => Promise<string>,
): Promise<LivingCommentApi> {
  const pullRequest = resolveForgePullRequest(extra, request.delivery.payload);
  const env = forgeEnv(settings, request.credentials);
  const gh = cliApi({
    profile: FORGE_PROFILE,
    cli: settings.cli,
    env,
    host: forgeHostOf(settings) ?? FORGE_PROFILE.defaultHost,
    timeoutS: settings.timeout_s,
    subject: `pull request #${pullRequest.prNumber} of ${pullRequest.repo}`,
    secrets: forgeSecrets(env),
    signal: request.signal,
  });
  if (!settings.app) return forgeLivingCommentApi(gh, pullRequest);
  if (!appBot) {
    throw Object.assign(
      new Error(
        "forge_comment with mode: update as a GitHub App needs the App's bot login (appBot), to tell its own comments from people's",
      ),
      { retryable: false },
    );
  }
  return forgeLivingCommentApi(gh, pullRequest, await appBot());
}
