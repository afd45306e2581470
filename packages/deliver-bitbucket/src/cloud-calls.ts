/** A Bitbucket Cloud pull request's calls (`/2.0`), as the targets use them. */
import { BITBUCKET_COMMENT_LIMIT } from './comment-limits.js';
import { bitbucketApi } from './bitbucket-api.js';
import { bitbucketFindingThreads } from './finding-threads.js';
import { bitbucketLivingCommentApi } from './living-comment.js';
import type { BitbucketPullRequest } from './pull-request.js';
import type { BitbucketPullRequestCalls } from './pull-request-calls.js';
import type { BitbucketCallContext } from './rest-client.js';

/**
 * The calls on `pullRequest`; a line comment is an inline comment on the new file's line
 * (`inline: { path, to }`, added and context lines alike).
 */
export function cloudPullRequestCalls(
  context: BitbucketCallContext,
  pullRequest: BitbucketPullRequest,
): BitbucketPullRequestCalls {
  const api = bitbucketApi(context);
  const { repo, id } = pullRequest;
  return {
    commentLimit: BITBUCKET_COMMENT_LIMIT,
    page: pullRequest.url ?? `https://bitbucket.org/${repo}/pull-requests/${id}`,
    postComment: async (body) => {
      await api.postComment(repo, id, body);
    },
    livingComments: (bot) => bitbucketLivingCommentApi(api, pullRequest, bot),
    diff: () => api.pullRequestDiff(repo, id),
    postLineComment: async (body, at) => {
      await api.postComment(repo, id, body, { path: at.path, to: at.line });
    },
    setBuildStatus: (commit, status) => api.postBuildStatus(repo, commit, status),
    findingThreads: (bot) => bitbucketFindingThreads(api, context, pullRequest, bot),
  };
}
