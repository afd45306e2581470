/**
 * A Bitbucket Data Center pull request's comment threads as finding threads: the gateway's own
 * comments on lines that start a thread (written by `platforms.bitbucket.data_center.bot`, else
 * by the token's user, whom Data Center names in `X-AUSERNAME`) with the fingerprint each carries,
 * whether a person resolved the thread (`threadResolved`, or `state: RESOLVED`) or answered
 * `/dismiss` anywhere in it (replies are nested in the first comment's `comments`); and the
 * resolution of a fixed finding's thread (`PUT …/comments/{id}` with `state: RESOLVED` at the
 * version Data Center checks). Data Center's reactions are not read: no 👎.
 */
import {
  isDismissal,
  type FindingThread,
  type FindingThreads,
} from '@webhook-gateway/deliver-forge-comment/comments';
import { findingMarkersIn } from '@webhook-gateway/core';
import type { DataCenterApi, DataCenterComment } from './data-center-api.js';
import { commentVersions } from './data-center-comment-versions.js';
import { writtenBy } from './data-center-living-comment.js';
import { commentAuthorNames, DATA_CENTER } from './own-account.js';
import type { BitbucketPullRequest } from './pull-request.js';
import type { BitbucketCallContext } from './rest-client.js';

/** Replies nest at most this deep before the walk through a thread stops. */
const MAX_DEPTH = 100;

/** Every reply in the thread `first` starts, however deep. */
function repliesIn(first: DataCenterComment): DataCenterComment[] {
  const replies: DataCenterComment[] = [];
  let level = first.comments ?? [];
  for (let depth = 0; level.length > 0 && depth < MAX_DEPTH; depth++) {
    replies.push(...level);
    level = level.flatMap((reply) => reply.comments ?? []);
  }
  return replies;
}

const isResolved = (comment: DataCenterComment) =>
  comment.threadResolved === true || comment.state === 'RESOLVED';

/** The gateway's finding threads on `pullRequest`, read and resolved through the REST API. */
export function dataCenterFindingThreads(
  api: DataCenterApi,
  context: BitbucketCallContext,
  { repo, id }: BitbucketPullRequest,
  bot: string | undefined,
): FindingThreads {
  const versions = commentVersions((commentId) => api.comment(repo, id, commentId));
  return {
    async read(trusted) {
      const names = await commentAuthorNames(DATA_CENTER, context, bot);
      const mine = (comment: DataCenterComment) => names.some((name) => writtenBy(comment, name));
      const threads = new Map<string, FindingThread>();
      for (const first of await api.listLineThreads(repo, id)) {
        if (!mine(first)) continue;
        const fingerprint = findingMarkersIn(first.text).find((found) => trusted.has(found));
        if (fingerprint === undefined || threads.has(fingerprint)) continue;
        versions.remember(String(first.id), first.version);
        threads.set(fingerprint, {
          threadId: String(first.id),
          resolved: isResolved(first),
          dismissed: repliesIn(first).some((reply) => !mine(reply) && isDismissal(reply.text)),
        });
      }
      return threads;
    },
    resolve: (threadId) =>
      versions.change(threadId, async (version, current) => {
        // Read again after a 409: someone may have resolved it meanwhile.
        if (current && isResolved(current)) return;
        await api.resolveComment(repo, id, threadId, version);
      }),
  };
}
