/**
 * A Data Center pull request's comments as the living comment needs them, edited and deleted at
 * the version Data Center checks (`data-center-comment-versions.ts`).
 */
import type { LivingCommentApi } from '@webhook-gateway/deliver-forge-comment/comments';
import type { DataCenterApi, DataCenterComment } from './data-center-api.js';
import { commentVersions } from './data-center-comment-versions.js';
import { showMarkers } from './markers.js';
import type { BitbucketPullRequest } from './pull-request.js';

/** True when `bot` names the comment's author by name or slug. */
export function writtenBy(comment: DataCenterComment, bot: string): boolean {
  return comment.author?.name === bot || comment.author?.slug === bot;
}

/**
 * The living comment's calls on `pullRequest`: general comments only (not on a line), their
 * bodies with the markers as the gateway writes them (`showMarkers`). With `bot`
 * (`platforms.bitbucket.data_center.bot`), only that user's comments count as the route's own.
 */
export function dataCenterLivingCommentApi(
  api: DataCenterApi,
  { repo, id }: BitbucketPullRequest,
  bot?: string,
): LivingCommentApi {
  const versions = commentVersions((commentId) => api.comment(repo, id, commentId));
  return {
    place: `bitbucket-data-center ${repo}#${id}`,
    async listMarked(marker) {
      const comments = await api.listComments(repo, id);
      const marked = comments
        .filter((comment) => comment.text.includes(marker))
        .filter((comment) => bot === undefined || writtenBy(comment, bot));
      for (const comment of marked) versions.remember(String(comment.id), comment.version);
      return marked.map((comment) => ({ id: String(comment.id), body: showMarkers(comment.text) }));
    },
    edit: (commentId, body) =>
      versions.change(commentId, async (version) => {
        versions.remember(commentId, await api.editComment(repo, id, commentId, body, version));
      }),
    post: async (body) => {
      await api.postComment(repo, id, body);
    },
    remove: (commentId) =>
      versions.change(commentId, (version) => api.deleteComment(repo, id, commentId, version)),
  };
}
