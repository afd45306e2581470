/**
 * `@webhook-gateway/deliver-bitbucket/delivery`: the code behind `bitbucket_comment` and
 * `bitbucket_review`, for programs that reuse it. Apart from the package's entry, so that loading
 * the plugin does not load it: the plugin imports it at the first delivery.
 */
export { deliverBitbucketComment } from './deliver-bitbucket-comment.js';
export { BITBUCKET_COMMENT_LIMIT, BITBUCKET_DATA_CENTER_COMMENT_LIMIT } from './comment-limits.js';
export { deliverBitbucketReview, type BitbucketReviewOutcome } from './deliver-bitbucket-review.js';
export {
  bitbucketApi,
  type BitbucketApi,
  type BitbucketBuildStatus,
  type BitbucketComment,
} from './bitbucket-api.js';
export { dataCenterApi, type DataCenterApi, type DataCenterComment } from './data-center-api.js';
export { BitbucketApiError } from './rest-client.js';
export {
  bitbucketFlavourOf,
  resolveBitbucketPullRequest,
  type BitbucketFlavour,
  type BitbucketPullRequest,
} from './pull-request.js';
export { hideMarkers } from './markers.js';
