/**
 * A Bitbucket Cloud pull request's comment threads as finding threads: the gateway's own
 * top-level inline comments (written by the token's account: `platforms.bitbucket.bot`, else
 * `GET /user`) with the fingerprint each carries, whether a person resolved the thread (its
 * `resolution`) or answered `/dismiss` in it; and the resolution of a fixed finding's thread
 * (`POST …/comments/{id}/resolve`). Bitbucket has no reactions, so no 👎 to read.
 */
import {
  isDismissal,
  type FindingThread,
  type FindingThreads,
} from '@webhook-gateway/deliver-forge-comment/comments';
import { findingMarkersIn } from '@webhook-gateway/core';
import type { BitbucketApi, BitbucketComment } from './bitbucket-api.js';
import { writtenBy } from './living-comment.js';
import { commentAuthorNames, CLOUD } from './own-account.js';
import type { BitbucketPullRequest } from './pull-request.js';
import type { BitbucketCallContext } from './rest-client.js';

/** Replies nest at most this deep before the walk to their thread's first comment gives up. */
const MAX_DEPTH = 100;

/** The gateway's finding threads on `pullRequest`, read and resolved through the REST API. */
export function bitbucketFindingThreads(
  api: BitbucketApi,
  context: BitbucketCallContext,
  { repo, id }: BitbucketPullRequest,
  bot: string | undefined,
): FindingThreads {
  return {
    async read(trusted) {
      const names = await commentAuthorNames(CLOUD, context, bot);
      const mine = (comment: BitbucketComment) => names.some((name) => writtenBy(comment, name));
      const comments = await api.listComments(repo, id);
      const byId = new Map(comments.map((comment) => [comment.id, comment]));
      /** The id of the first comment of the thread `comment` is in. */
      const rootOf = (comment: BitbucketComment): number => {
        let current = comment;
        for (let depth = 0; current.parent && depth < MAX_DEPTH; depth++) {
          const parent = byId.get(current.parent.id);
          if (!parent) return current.parent.id;
          current = parent;
        }
        return current.id;
      };
      const threads = new Map<string, FindingThread>();
      for (const first of comments) {
        if (first.parent || !first.inline || !mine(first)) continue;
        const fingerprint = findingMarkersIn(first.content.raw).find((found) => trusted.has(found));
        if (fingerprint === undefined || threads.has(fingerprint)) continue;
        threads.set(fingerprint, {
          threadId: String(first.id),
          resolved: first.resolution != null,
          dismissed: comments.some(
            (reply) =>
              reply.parent &&
              !mine(reply) &&
              rootOf(reply) === first.id &&
              isDismissal(reply.content.raw),
          ),
        });
      }
      return threads;
    },
    resolve: (threadId) => api.resolveComment(repo, id, threadId),
  };
}
