/**
 * `@webhook-gateway/deliver-gitea/delivery`: the code behind `gitea_comment` and `gitea_review`,
 * for programs that reuse it. Apart from the package's entry, so that loading the plugin does not
 * load it: the plugin imports it at the first delivery.
 */
export { deliverGiteaComment, GITEA_COMMENT_LIMIT } from './deliver-gitea-comment.js';
export { deliverGiteaReview, type GiteaReviewOutcome } from './deliver-gitea-review.js';
export {
  giteaApi,
  GiteaApiError,
  type GiteaApi,
  type GiteaComment,
  type GiteaReview,
  type GiteaStatus,
} from './gitea-api.js';
export { resolveGiteaPullRequest, type GiteaPullRequest } from './pull-request.js';
export { checkGitea, logGiteaConnection } from './connection-check.js';
