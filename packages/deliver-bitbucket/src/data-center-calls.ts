/** A Bitbucket Data Center pull request's calls (`/rest/api/1.0`), as the targets use them. */
import { BITBUCKET_DATA_CENTER_COMMENT_LIMIT } from './comment-limits.js';
import { dataCenterApi } from './data-center-api.js';
import { dataCenterFindingThreads } from './data-center-finding-threads.js';
import { dataCenterLivingCommentApi } from './data-center-living-comment.js';
import type { BitbucketPullRequest } from './pull-request.js';
import type { BitbucketPullRequestCalls } from './pull-request-calls.js';
import type { BitbucketCallContext } from './rest-client.js';
import type { DataCenterConnection } from './settings.js';

/** The pull request's page on the server: `…/projects/{key}/repos/{slug}/pull-requests/{id}`. */
function pullRequestPage(serverUrl: string, { repo, id }: BitbucketPullRequest): string {
  const [project = '', slug = ''] = repo.split('/').map(encodeURIComponent);
  return `${serverUrl}/projects/${project}/repos/${slug}/pull-requests/${id}`;
}

/**
 * The calls on `pullRequest`; a line comment is anchored on the new file's line of the pull
 * request's diff (`fileType: TO`, `diffType: EFFECTIVE`), `lineType` `ADDED` or `CONTEXT` as the
 * diff shows it.
 */
export function dataCenterPullRequestCalls(
  context: BitbucketCallContext & { connection: DataCenterConnection },
  pullRequest: BitbucketPullRequest,
): BitbucketPullRequestCalls {
  const api = dataCenterApi(context);
  const { repo, id } = pullRequest;
  return {
    commentLimit: BITBUCKET_DATA_CENTER_COMMENT_LIMIT,
    page: pullRequest.url ?? pullRequestPage(context.connection.serverUrl, pullRequest),
    postComment: async (body) => {
      await api.postComment(repo, id, body);
    },
    livingComments: (bot) => dataCenterLivingCommentApi(api, pullRequest, bot),
    diff: () => api.pullRequestDiff(repo, id),
    postLineComment: async (body, at) => {
      await api.postComment(repo, id, body, {
        path: at.path,
        line: at.line,
        lineType: at.added ? 'ADDED' : 'CONTEXT',
        fileType: 'TO',
        diffType: 'EFFECTIVE',
      });
    },
    setBuildStatus: (commit, status) => api.postBuildStatus(repo, commit, status),
    findingThreads: (bot) => dataCenterFindingThreads(api, context, pullRequest, bot),
  };
}
