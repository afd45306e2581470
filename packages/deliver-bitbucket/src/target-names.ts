/** The target names, known without loading the targets' code (the plugin taps them at setup). */
export const BITBUCKET_COMMENT_TARGET = 'bitbucket_comment';
export const BITBUCKET_REVIEW_TARGET = 'bitbucket_review';
export const BITBUCKET_TARGETS = [BITBUCKET_COMMENT_TARGET, BITBUCKET_REVIEW_TARGET] as const;
