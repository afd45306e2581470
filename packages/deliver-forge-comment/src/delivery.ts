/**
 * `@webhook-gateway/deliver-forge-comment/delivery`: the code behind the four targets (the
 * pull or merge request a delivery goes to, the CLI calls, splitting, the comment bodies), for
 * programs that reuse it. Apart from the package's entry, so that loading the plugin does not
 * load it: the plugin imports each target's code at its first delivery.
 */
export { splitForComments, chunkText } from './split.js';
export { commentBodies, EMPTY_ANSWER_PLACEHOLDER } from './comment-bodies.js';
export { CommentDeliveryError, type DeliveryFailureReason } from './errors.js';
export { resolveForgePullRequest, isForgeRepoName, type ForgePullRequest } from './forge-target.js';
export {
  resolveAltforgeMergeRequest,
  isAltforgeProjectPath,
  type AltforgeMergeRequest,
} from './altforge-target.js';
export { FORGE_COMMENT_LIMIT, forgeCommentArgv, forgeEnv, forgeHostOf } from './forge-cli.js';
export { ALTFORGE_NOTE_LIMIT, altforgeNoteArgv, altforgeEnv } from './altforge-cli.js';
export { deliverForgeComment } from './deliver-forge-comment.js';
export { deliverForgeReview } from './deliver-forge-review.js';
export { deliverAltforgeComment } from './deliver-altforge-comment.js';
export { deliverAltforgeReview } from './deliver-altforge-review.js';
