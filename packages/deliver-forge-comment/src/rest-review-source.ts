/**
 * A `ReviewSource` built from a REST forge's calls (Bitbucket Cloud and Data Center, Gitea): the
 * request's facts (the payload's pull request, else asked), the incremental diff (since the last
 * reviewed head, the whole pull request once that head is gone) and files at a commit. The forge
 * plugins bring only their REST calls; what to read when is decided here, once.
 */
import { splitDiff } from '@webhook-gateway/review-kit';
import type { z } from 'zod';
import {
  COMMIT_SHA,
  shortSha,
  type DiffRead,
  type ReviewRequestFacts,
  type ReviewSource,
} from './review-source.js';

/** A forge's REST calls for a review source, `Pull` being its pull request as its schema reads it. */
export interface RestReviewCalls<Pull> {
  /** `<forge>|<apiBase>|<repo>`: the start of the base files' cache keys. */
  cacheKey: string;
  /** The forge's name in a diff's range: `Bitbucket`, `Gitea`. */
  forge: string;
  /** The pull request as the payload and the forge's answer give it. */
  pullRequestSchema: z.ZodType<Pull>;
  /** Its facts: the base commit (where the rules are read), the head, what skip rules look at. */
  factsOf(pull: Pull): ReviewRequestFacts;
  /** The payload's pull request: read first, no call made when it names both commits. */
  fromPayload: unknown;
  /** `GET` the pull request (a comment's payload carries no commits). */
  askPullRequest(): Promise<unknown>;
  /** The error when the forge's answer names no base and head commits either. */
  unreadable: string;
  /** The whole pull request's diff, as diff text. */
  wholeDiff(): Promise<string>;
  /**
   * The head's changes since the last reviewed head, as diff text; absent where the forge's API
   * gives no diff between two commits (the whole pull request is read then, and the range says so).
   */
  diffSince?: {
    read(since: string, head: string): Promise<string>;
    /** True when `error` says the forge no longer knows `since` (a force push dropped it). */
    isGone(error: unknown): boolean;
  };
  /** A file at `sha`; undefined when it does not exist there. */
  fileAt(sha: string, path: string): Promise<string | undefined>;
}

/**
 * The review source over `calls`.
 *
 * @example restReviewSource({ cacheKey, forge: 'Bitbucket', pullRequestSchema, factsOf, fromPayload, askPullRequest, unreadable, wholeDiff, diffSince, fileAt })
 */
export function restReviewSource<Pull>(calls: RestReviewCalls<Pull>): ReviewSource {
  const whole = async (range: string): Promise<DiffRead> => ({
    files: splitDiff(await calls.wholeDiff()),
    withoutPatch: [],
    range,
  });
  let asked: Promise<ReviewRequestFacts> | undefined;
  return {
    cacheKey: calls.cacheKey,
    request() {
      asked ??= (async () => {
        const fromPayload = calls.pullRequestSchema.safeParse(calls.fromPayload);
        if (fromPayload.success) return calls.factsOf(fromPayload.data);
        const answer = calls.pullRequestSchema.safeParse(await calls.askPullRequest());
        if (!answer.success) throw new Error(calls.unreadable);
        return calls.factsOf(answer.data);
      })();
      return asked;
    },
    async diff(since, request) {
      if (!COMMIT_SHA.test(since)) return whole('the whole pull request');
      const { diffSince } = calls;
      if (!diffSince) {
        return whole(
          `the whole pull request (${calls.forge}'s API gives no diff between two commits, so not only the changes since ${shortSha(since)}, the last reviewed head)`,
        );
      }
      const { headSha } = await request;
      try {
        return {
          files: splitDiff(await diffSince.read(since, headSha)),
          withoutPatch: [],
          range: `changes since ${shortSha(since)} (the last reviewed head) to ${shortSha(headSha)}`,
        };
      } catch (error) {
        // The last reviewed head is gone (a force push): the whole pull request instead.
        if (!diffSince.isGone(error)) throw error;
        return whole(
          `the whole pull request (the last reviewed head ${shortSha(since)} is no longer known to ${calls.forge})`,
        );
      }
    },
    file: (sha, path) => calls.fileAt(sha, path),
  };
}
