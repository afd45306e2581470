/**
 * `@webhook-gateway/review-kit`: what forge plugins share to prepare a review's context. A diff
 * cut into files and hunks, each file's kind, the diff pruned to a token budget (and grouped into
 * chunks of whole files), the repository's own rules from its base branch, its guidance files
 * under a cap, and the footer that says what was not read.
 */
export {
  splitDiff,
  fileFromPatch,
  renderDiff,
  renderFile,
  type DiffFile,
  type DiffHunk,
} from './diff-files.js';
export { fileKind, markedPaths, type FileKind, type MarkedPaths } from './file-kind.js';
export { countTokens, tokensWithin } from './tokens.js';
export {
  pruneDiff,
  type DiffStats,
  type PruneOptions,
  type PrunedDiff,
  type SkipReason,
  type SkippedFile,
} from './prune.js';
export {
  REPO_CONFIG_FILE,
  readRepoRules,
  skipReason,
  instructionsFor,
  type RepoConfig,
  type RepoRules,
  type RequestFacts,
} from './repo-config.js';
export {
  DEFAULT_GUIDANCE_FILES,
  capGuidance,
  type Guidance,
  type GuidanceFile,
} from './guidance.js';
export { reviewFooter, type FooterFacts } from './footer.js';
