/**
 * `@webhook-gateway/deliver-forge-comment/comments`: the forge-neutral parts of a comment target,
 * for the plugins that answer other forges over their REST APIs (Gitea, Bitbucket): the living
 * comment found by its marker, the comment bodies split at a limit, the line comments a diff can
 * hold, and the destination read from `deliver_extra` or the payload. Apart from the entry and
 * `./delivery`, so that importing it loads neither gh nor glab code.
 */
export {
  commentMarker,
  commentMode,
  commentModeProblems,
  livingPartLimit,
  updateLivingComment,
  type LivingCommentApi,
  type LivingCommentOutcome,
} from './living-comment.js';
export { commentBodies, EMPTY_ANSWER_PLACEHOLDER } from './comment-bodies.js';
export { splitForComments } from './split.js';
export {
  bodyWithMovedComments,
  commentableLines,
  diffLinesByPath,
  markedLineCommentBody,
  splitByDiff,
} from './review-lines.js';
export {
  endStatus,
  endWithoutReview,
  PENDING_STATUS,
  queuedStatus,
  withCheckStatus,
  type CheckStatus,
  type SetCheckStatus,
} from './check-status.js';
export { checkIsOn, checkName, dashboardPage } from './check-output.js';
export { checkSettingProblems } from './check-settings.js';
export { CommentDeliveryError, type DeliveryFailureReason } from './errors.js';
export { parsePositiveInteger } from './extra-value.js';
export {
  payloadField,
  resolveTargetField,
  type FoundValue,
  type TargetField,
} from './target-field.js';
