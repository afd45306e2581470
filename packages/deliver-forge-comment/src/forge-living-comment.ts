/** A pull request's issue comments through `gh api` (REST), for the living comment. */
import type { CliApi } from './cli-api.js';
import type { ForgePullRequest } from './forge-target.js';
import type { LivingCommentApi } from './living-comment.js';

/**
 * The living comment's calls for `pullRequest`. With `author` (the GitHub App's `<slug>[bot]`),
 * only comments that account wrote are its own: a person's comment that quotes the marker is
 * never edited or deleted.
 */
export function forgeLivingCommentApi(
  gh: CliApi,
  pullRequest: ForgePullRequest,
  author?: string,
): LivingCommentApi {
  const { repo, prNumber } = pullRequest;
  // The marker and the login go into the jq program as JSON string literals (valid jq strings).
  const byAuthor = author === undefined ? '' : ` and .user.login == ${JSON.stringify(author)}`;
  return {
    async listMarked(marker) {
      const listed = await gh([
        '--paginate',
        `repos/${repo}/issues/${prNumber}/comments`,
        '--jq',
        `.[] | select((.body | contains(${JSON.stringify(marker)}))${byAuthor}) | .id`,
      ]);
      return listed
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => /^\d+$/.test(line));
    },
    async edit(id, body) {
      const input = JSON.stringify({ body });
      await gh(['-X', 'PATCH', `repos/${repo}/issues/comments/${id}`, '--input', '-'], input);
    },
    async post(body) {
      const input = JSON.stringify({ body });
      await gh(['-X', 'POST', `repos/${repo}/issues/${prNumber}/comments`, '--input', '-'], input);
    },
    async remove(id) {
      await gh(['-X', 'DELETE', `repos/${repo}/issues/comments/${id}`]);
    },
  };
}
