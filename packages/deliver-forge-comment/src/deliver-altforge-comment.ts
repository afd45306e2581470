/** The `altforge_comment` target: the answer as a note on a merge request, through `glab`. */
import type { DeliverRequest } from '@webhook-gateway/core';
import {
  ALTFORGE_NOTE_LIMIT,
  ALTFORGE_PROFILE,
  altforgeEnv,
  altforgeNoteArgv,
} from './altforge-cli.js';
import { ALTFORGE_TARGET, resolveAltforgeMergeRequest } from './altforge-target.js';
import { commentBodies } from './comment-bodies.js';
import { postComments } from './post-comments.js';
import type { AltforgeSettings } from './settings.js';

/**
 * Runs `glab mr note <iid> --repo <path>` with the note on stdin, once per note body, with the
 * plugin's `platforms.altforge` settings.
 * Throws a `CommentDeliveryError` (the worker retries) when the target is invalid or glab fails.
 */
export async function deliverAltforgeComment(
  request: DeliverRequest,
  settings: AltforgeSettings,
): Promise<void> {
  const mergeRequest = resolveAltforgeMergeRequest(request.extra, request.delivery.payload);
  const bodies = commentBodies(request.answer, ALTFORGE_NOTE_LIMIT, request.delivery.deliveryId);
  await postComments({
    profile: ALTFORGE_PROFILE,
    cli: settings.cli,
    args: altforgeNoteArgv(mergeRequest),
    env: altforgeEnv(settings),
    host: settings.host ?? ALTFORGE_PROFILE.defaultHost,
    timeoutS: settings.timeout_s,
    subject: `merge request !${mergeRequest.iid} of ${mergeRequest.path}`,
    bodies,
    secrets: settings.token ? [settings.token] : [],
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
