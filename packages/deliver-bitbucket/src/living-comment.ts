/** A pull request's comments through Bitbucket Cloud's API, as the living comment needs them. */
import type { LivingCommentApi } from '@webhook-gateway/deliver-forge-comment/comments';
import type { BitbucketApi, BitbucketComment } from './bitbucket-api.js';
import { showMarkers } from './markers.js';
import type { BitbucketPullRequest } from './pull-request.js';

/** True when `bot` names the comment's author by uuid, account id or nickname. */
export function writtenBy(comment: BitbucketComment, bot: string): boolean {
  const user = comment.user;
  return user?.uuid === bot || user?.account_id === bot || user?.nickname === bot;
}

/**
 * The living comment's calls on `pullRequest`: general comments only (not inline ones), their
 * bodies with the markers as the gateway writes them (`showMarkers`). With `bot`
 * (`platforms.bitbucket.bot`), only that account's comments count as the route's own.
 */
export function bitbucketLivingCommentApi(
  api: BitbucketApi,
  { repo, id }: BitbucketPullRequest,
  bot?: string,
): LivingCommentApi {
  return {
    place: `bitbucket ${repo}#${id}`,
    async listMarked(marker) {
      const comments = await api.listComments(repo, id);
      return comments
        .filter((comment) => comment.content.raw.includes(marker))
        .filter((comment) => bot === undefined || writtenBy(comment, bot))
        .map((comment) => ({ id: String(comment.id), body: showMarkers(comment.content.raw) }));
    },
    edit: (commentId, body) => api.editComment(repo, id, commentId, body),
    post: async (body) => {
      await api.postComment(repo, id, body);
    },
    remove: (commentId) => api.deleteComment(repo, id, commentId),
  };
}
