/**
 * A Data Center pull request's comments as the living comment needs them. Data Center edits and
 * deletes a comment only at its current `version`: the one the listing read is used, and after a
 * `409` (someone edited it since) the comment is read again and the change made once more.
 */
import type { LivingCommentApi } from '@webhook-gateway/deliver-forge-comment/comments';
import type { DataCenterApi, DataCenterComment } from './data-center-api.js';
import type { BitbucketPullRequest } from './pull-request.js';
import { BitbucketApiError } from './rest-client.js';

/** True when `bot` names the comment's author by name or slug. */
function writtenBy(comment: DataCenterComment, bot: string): boolean {
  return comment.author?.name === bot || comment.author?.slug === bot;
}

/**
 * The living comment's calls on `pullRequest`: general comments only (not on a line). With `bot`
 * (`platforms.bitbucket.data_center.bot`), only that user's comments count as the route's own.
 */
export function dataCenterLivingCommentApi(
  api: DataCenterApi,
  { repo, id }: BitbucketPullRequest,
  bot?: string,
): LivingCommentApi {
  const versions = new Map<string, number>();

  /** Runs `change` at the comment's known version; after a 409, at the version it has now. */
  async function atVersion(commentId: string, change: (version: number) => Promise<void>) {
    const known = versions.get(commentId);
    if (known !== undefined) {
      try {
        return await change(known);
      } catch (error) {
        if (!(error instanceof BitbucketApiError) || error.status !== 409) throw error;
      }
    }
    await change((await api.comment(repo, id, commentId)).version);
  }

  return {
    async listMarked(marker) {
      const comments = await api.listComments(repo, id);
      const marked = comments
        .filter((comment) => comment.text.includes(marker))
        .filter((comment) => bot === undefined || writtenBy(comment, bot));
      for (const comment of marked) versions.set(String(comment.id), comment.version);
      return marked.map((comment) => String(comment.id));
    },
    edit: (commentId, body) =>
      atVersion(commentId, async (version) => {
        versions.set(commentId, await api.editComment(repo, id, commentId, body, version));
      }),
    post: async (body) => {
      await api.postComment(repo, id, body);
    },
    remove: (commentId) =>
      atVersion(commentId, (version) => api.deleteComment(repo, id, commentId, version)),
  };
}
