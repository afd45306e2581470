/** A pull request's issue comments through `gh api` (REST), for the living comment. */
import type { CliApi } from './cli-api.js';
import type { ForgePullRequest } from './forge-target.js';
import type { LivingCommentApi } from './living-comment.js';

export function forgeLivingCommentApi(gh: CliApi, pullRequest: ForgePullRequest): LivingCommentApi {
  const { repo, prNumber } = pullRequest;
  return {
    async listMarked(marker) {
      // The marker goes into the jq program as a JSON string literal (a valid jq string).
      const listed = await gh([
        '--paginate',
        `repos/${repo}/issues/${prNumber}/comments`,
        '--jq',
        `.[] | select(.body | contains(${JSON.stringify(marker)})) | .id`,
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
