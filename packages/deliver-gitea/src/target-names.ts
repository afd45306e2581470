/** The target names, known without loading the targets' code (the plugin taps them at setup). */
export const GITEA_COMMENT_TARGET = 'gitea_comment';
export const GITEA_REVIEW_TARGET = 'gitea_review';
export const GITEA_TARGETS = [GITEA_COMMENT_TARGET, GITEA_REVIEW_TARGET] as const;
