/** The `altforge_comment` target: the answer as a note on a merge request, through `glab`. */
import type { DeliverRequest, DeliveryStateRequest } from '@webhook-gateway/core';
import {
  ALTFORGE_NOTE_LIMIT,
  ALTFORGE_PROFILE,
  altforgeEnv,
  altforgeSecrets,
  altforgeNoteArgv,
} from './altforge-cli.js';
import { altforgeLivingCommentApi } from './altforge-living-comment.js';
import { resolveAltforgeMergeRequest } from './altforge-target.js';
import { ALTFORGE_TARGET } from './target-names.js';
import { cliApi } from './cli-api.js';
import { commentBodies } from './comment-bodies.js';
import {
  commentMode,
  livingPartLimit,
  updateLivingComment,
  type LivingCommentApi,
} from './living-comment.js';
import { postComments } from './post-comments.js';
import type { AltforgeSettings } from './settings.js';

/**
 * Runs `glab mr note <iid> --repo <path>` with the note on stdin, once per note body, with the
 * plugin's `platforms.altforge` settings; with `deliver_extra.mode: update`, edits the route's
 * own notes through `glab api` instead.
 * Throws a `CommentDeliveryError` (the worker retries) when the target is invalid or glab fails.
 */
export async function deliverAltforgeComment(
  request: DeliverRequest,
  settings: AltforgeSettings,
): Promise<void> {
  const mergeRequest = resolveAltforgeMergeRequest(request.extra, request.delivery.payload);
  const host = settings.host ?? ALTFORGE_PROFILE.defaultHost;
  const env = altforgeEnv(settings, request.credentials);
  const secrets = altforgeSecrets(env);
  const subject = `merge request !${mergeRequest.iid} of ${mergeRequest.path}`;
  if (commentMode(ALTFORGE_TARGET, request.extra) === 'update') {
    const route = request.delivery.route;
    const outcome = await updateLivingComment(
      altforgeLivingComment(request, request.extra, settings),
      route,
      commentBodies(
        request.answer,
        livingPartLimit(ALTFORGE_NOTE_LIMIT, route),
        request.delivery.deliveryId,
      ),
    );
    request.log.info(
      { target: ALTFORGE_TARGET, repo: mergeRequest.path, mr_iid: mergeRequest.iid, ...outcome },
      'updated the living merge request note',
    );
    return;
  }
  const bodies = commentBodies(request.answer, ALTFORGE_NOTE_LIMIT, request.delivery.deliveryId);
  await postComments({
    profile: ALTFORGE_PROFILE,
    cli: settings.cli,
    args: altforgeNoteArgv(mergeRequest),
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
      target: ALTFORGE_TARGET,
      repo: mergeRequest.path,
      mr_iid: mergeRequest.iid,
      comments: bodies.length,
    },
    'posted the answer as a merge request note',
  );
}

/**
 * The route's living note on the delivery's merge request, through `glab api` (`extra` is
 * `deliver_extra` rendered against the payload).
 */
export function altforgeLivingComment(
  request: Pick<DeliveryStateRequest, 'delivery' | 'credentials' | 'signal'>,
  extra: Record<string, unknown>,
  settings: AltforgeSettings,
): LivingCommentApi {
  const mergeRequest = resolveAltforgeMergeRequest(extra, request.delivery.payload);
  const env = altforgeEnv(settings, request.credentials);
  const glab = cliApi({
    profile: ALTFORGE_PROFILE,
    cli: settings.cli,
    env,
    host: settings.host ?? ALTFORGE_PROFILE.defaultHost,
    timeoutS: settings.timeout_s,
    subject: `merge request !${mergeRequest.iid} of ${mergeRequest.path}`,
    secrets: altforgeSecrets(env),
    signal: request.signal,
  });
  return altforgeLivingCommentApi(glab, mergeRequest);
}
