/**
 * `@webhook-gateway/deliver-bitbucket/delivery`: the code behind `bitbucket_comment` and
 * `bitbucket_review`, for programs that reuse it. Apart from the package's entry, so that loading
 * the plugin does not load it: the plugin imports it at the first delivery.
 */
export { deliverBitbucketComment, BITBUCKET_COMMENT_LIMIT } from './deliver-bitbucket-comment.js';
export { deliverBitbucketReview, type BitbucketReviewOutcome } from './deliver-bitbucket-review.js';
export {
  bitbucketApi,
  BitbucketApiError,
  type BitbucketApi,
  type BitbucketBuildStatus,
  type BitbucketComment,
} from './bitbucket-api.js';
export { resolveBitbucketPullRequest, type BitbucketPullRequest } from './pull-request.js';
export { hideMarkers } from './markers.js';
