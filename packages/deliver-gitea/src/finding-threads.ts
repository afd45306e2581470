/**
 * A pull request's review conversations on Gitea and Forgejo as finding threads: the gateway's
 * own line comments (written by the token's account: `platforms.gitea.bot`, else `GET /user`)
 * with the fingerprint each carries, whether a person resolved the conversation (its first
 * comment's `resolver`) or answered `/dismiss` in it; and the resolution of a fixed finding's
 * conversation where the instance has the endpoint. Gitea's API has no conversation id: a
 * conversation is the review comments on one file and line, as its pull request page groups them.
 */
import {
  isDismissal,
  type FindingThread,
  type FindingThreads,
} from '@webhook-gateway/deliver-forge-comment/comments';
import { findingMarkersIn } from '@webhook-gateway/core';
import type { GiteaApi, GiteaReviewComment } from './gitea-api.js';
import type { GiteaPullRequest } from './pull-request.js';

/** The conversation a review comment belongs to: its file and its line, new or old side. */
function conversationOf(comment: GiteaReviewComment): string {
  return `${comment.path}\0${comment.position ?? 0}\0${comment.original_position ?? 0}`;
}

/** The gateway's finding threads on `pullRequest`, read and resolved through Gitea's REST API. */
export function giteaFindingThreads(
  api: GiteaApi,
  { repo, number }: GiteaPullRequest,
  bot: string | undefined,
): FindingThreads {
  let resolvable = true;
  return {
    async read(trusted) {
      const own = bot ?? (await api.currentUser());
      const comments = await api.listReviewComments(repo, number);
      const threads = new Map<string, FindingThread>();
      for (const [index, first] of comments.entries()) {
        if (first.user?.login !== own) continue;
        const fingerprint = findingMarkersIn(first.body).find((found) => trusted.has(found));
        if (fingerprint === undefined || threads.has(fingerprint)) continue;
        const conversation = conversationOf(first);
        const replies = comments
          .slice(index + 1)
          .filter((reply) => conversationOf(reply) === conversation);
        threads.set(fingerprint, {
          threadId: String(first.id),
          resolved: first.resolver != null,
          dismissed: replies.some((reply) => reply.user?.login !== own && isDismissal(reply.body)),
        });
      }
      return threads;
    },
    async resolve(threadId) {
      // One refusal says the instance has no endpoint: not asked again for this review.
      if (!resolvable) return 'unsupported';
      const outcome = await api.resolveReviewComment(repo, number, threadId);
      if (outcome === 'unsupported') resolvable = false;
      return outcome;
    },
  };
}
