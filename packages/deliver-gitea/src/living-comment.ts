/** A pull request's issue comments through Gitea's API, as the living comment needs them. */
import type { LivingCommentApi } from '@webhook-gateway/deliver-forge-comment/comments';
import type { GiteaApi } from './gitea-api.js';
import type { GiteaPullRequest } from './pull-request.js';

/**
 * The living comment's calls on `pullRequest`. With `author` (`platforms.gitea.bot`), only that
 * account's comments count as the route's own.
 */
export function giteaLivingCommentApi(
  api: GiteaApi,
  { repo, number }: GiteaPullRequest,
  author?: string,
): LivingCommentApi {
  return {
    place: `gitea ${repo}#${number}`,
    async listMarked(marker) {
      const comments = await api.listIssueComments(repo, number);
      return comments
        .filter((comment) => comment.body.includes(marker))
        .filter((comment) => author === undefined || comment.user?.login === author)
        .map((comment) => ({ id: String(comment.id), body: comment.body }));
    },
    edit: (id, body) => api.editIssueComment(repo, id, body),
    post: async (body) => {
      await api.postIssueComment(repo, number, body);
    },
    remove: (id) => api.deleteIssueComment(repo, id),
  };
}
