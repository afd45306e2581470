/** A pull request's issue comments through `gh api` (REST), for the living comment. */
import { z } from 'zod';
import type { CliApi } from './cli-api.js';
import { CommentDeliveryError } from './errors.js';
import type { ForgePullRequest } from './forge-target.js';
import type { LivingCommentApi } from './living-comment.js';
import { FORGE_TARGET } from './target-names.js';

const listedComment = z.object({ id: z.number().int(), body: z.string() });

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
    place: `forge ${repo}#${prNumber}`,
    async listMarked(marker) {
      const listed = await gh([
        '--paginate',
        `repos/${repo}/issues/${prNumber}/comments`,
        '--jq',
        // One comment per line: its id and body as a JSON object (a body's newlines escaped).
        `.[] | select((.body | contains(${JSON.stringify(marker)}))${byAuthor}) | {id, body} | tojson`,
      ]);
      return listed
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
          const comment = listedComment.safeParse(parseJson(line));
          if (!comment.success) {
            throw new CommentDeliveryError(
              FORGE_TARGET,
              'cli-failed',
              `gh api repos/${repo}/issues/${prNumber}/comments answered something other than comments: ${comment.error.message}`,
            );
          }
          return { id: String(comment.data.id), body: comment.data.body };
        });
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
