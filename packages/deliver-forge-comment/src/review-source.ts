/**
 * What the review context needs of a forge, whichever it is: the request's facts (its base and
 * head, what the skip rules look at), its diff, and files of its base branch. The forge (`gh`)
 * and the altforge (`glab`) each implement it; `review-context.ts` assembles the rest.
 */
import type { DiffFile, RequestFacts } from '@webhook-gateway/review-kit';

/** The pull or merge request as the review needs it. */
export interface ReviewRequestFacts {
  /** The base branch's commit the request is reviewed against: rules are read there only. */
  baseSha: string;
  headSha: string;
  facts: RequestFacts;
}

/** A diff as read from the forge. */
export interface DiffRead {
  /** Files with their hunks (or marked binary). */
  files: DiffFile[];
  /** Files the forge gave no patch for though they changed text (too large to show). */
  withoutPatch: DiffFile[];
  /** What the diff covers, for `diff_stats`: `the whole pull request`, `changes since abc1234`. */
  range: string;
  /** Set when no diff could be read at all: the footer says so. */
  problem?: string;
}

export interface ReviewSource {
  /** `forge|<host>|<owner/repo>`: the start of the base files' cache keys. */
  readonly cacheKey: string;
  /** The request's facts (from the payload, or asked of the forge). */
  request(): Promise<ReviewRequestFacts>;
  /**
   * The diff: the compare from `since` to the head when `since` is set, else the whole request's.
   * Falls back to the files endpoint when the forge refuses the diff as too large.
   */
  diff(since: string, request: Promise<ReviewRequestFacts>): Promise<DiffRead>;
  /** A file at `sha` of the repository; undefined when it does not exist there. */
  file(sha: string, path: string): Promise<string | undefined>;
}

/** A commit SHA as it may go into an API path (payloads are read, never trusted). */
export const COMMIT_SHA = /^[0-9a-f]{7,64}$/i;

/** `abc1234`: a commit as people read it. */
export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}
