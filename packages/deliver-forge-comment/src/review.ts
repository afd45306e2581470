/**
 * `@webhook-gateway/deliver-forge-comment/review`: the forge-neutral review context, for the
 * plugins that answer other forges over their REST APIs (Bitbucket, Gitea): they hand their REST
 * calls to `restReviewSource` (the request's facts, its diff, files of its base commit) and get the pruned
 * diff, the base branch's rules and guidance as the forge and the altforge do. Loaded at the
 * first review whose template names a review value.
 */
export { reviewContextFrom } from './review-context.js';
export { restReviewSource, type RestReviewCalls } from './rest-review-source.js';
export { BaseFiles } from './base-files.js';
export {
  COMMIT_SHA,
  shortSha,
  type DiffRead,
  type ReviewRequestFacts,
  type ReviewSource,
} from './review-source.js';
