/**
 * `@webhook-gateway/deliver-forge-comment/comments`: the forge-neutral parts of a comment target,
 * for the plugins that answer other forges over their REST APIs (Gitea, Bitbucket): the living
 * comment found by its marker, the comment bodies split at a limit, the line comments a diff can
 * hold, the findings remembered across pushes, and the destination read from `deliver_extra` or
 * the payload. Apart from the entry and `./delivery`, so that importing it loads neither gh nor
 * glab code. Also the command routes' permission cache and refusal, and whether a loop can start
 * (the loop guard asks its account).
 */
export {
  commentMarker,
  commentMode,
  commentModeProblems,
  livingPartLimit,
  updateLivingComment,
  WAITING_MARKER,
  type LivingCommentApi,
  type MarkedComment,
  type LivingCommentOutcome,
} from './living-comment.js';
export { commentBodies, EMPTY_ANSWER_PLACEHOLDER } from './comment-bodies.js';
export { splitForComments } from './split.js';
export {
  addedLinesByPath,
  bodyWithMovedComments,
  commentableLines,
  diffLinesByPath,
  diffLineTextsByPath,
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
export { findingsJournalOf, rememberFindings, type FindingThreads } from './remember-findings.js';
export { isDismissal, type FindingThread } from './review-findings.js';
export {
  tapCheckStatus,
  tapCommandPermission,
  tapReviewContext,
  type CommandPermissionLookup,
} from './forge-plugin-taps.js';
export { tapWaitingLivingComment, type LivingCommentReach } from './waiting-living-comment-tap.js';
export { checkSettingProblems } from './check-settings.js';
export { CommentDeliveryError, type DeliveryFailureReason } from './errors.js';
export { parsePositiveInteger } from './extra-value.js';
export {
  payloadField,
  resolveTargetField,
  type FoundValue,
  type TargetField,
} from './target-field.js';
export {
  cannotAsk,
  commandDenied,
  commandUnnamed,
  PermissionCache,
  permissionUntold,
  rankVerdict,
} from './command-admission.js';
export { loopCanStart } from './accounts-to-ask.js';
