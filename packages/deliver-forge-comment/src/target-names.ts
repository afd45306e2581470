/** The four target names, known without loading the targets' code (the plugin taps them at setup). */
export const FORGE_TARGET = 'forge_comment';
export const FORGE_REVIEW_TARGET = 'forge_review';
export const ALTFORGE_TARGET = 'altforge_comment';
export const ALTFORGE_REVIEW_TARGET = 'altforge_review';
