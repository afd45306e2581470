/**
 * Where the gateway splits an answer into comments on each Bitbucket, less room for the markers
 * it rewrites as link definitions (`hideMarkers`, 64 characters).
 */

/** Bitbucket Cloud documents no length limit for a comment: split at 32,768 characters. */
export const BITBUCKET_COMMENT_LIMIT = 32_768 - 64;

/**
 * Bitbucket Data Center refuses a comment of 32,768 characters or more (`400`, "Please enter a
 * non-empty value less than 32768 characters"; its REST reference names no limit).
 */
export const BITBUCKET_DATA_CENTER_COMMENT_LIMIT = 32_767 - 64;
