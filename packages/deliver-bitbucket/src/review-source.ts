/**
 * Bitbucket Cloud's side of a review context, through its REST API: the pull request's facts
 * (from the payload's `pullrequest`, else `GET …/pullrequests/{id}`), its diff
 * (`GET …/pullrequests/{id}/diff`, the redirect followed), the diff since the last reviewed head
 * (`GET …/diff/{head}..{since}`), and files of the base commit (`GET …/src/{commit}/{path}`).
 */
import type { JsonObject } from '@webhook-gateway/core';
import {
  COMMIT_SHA,
  shortSha,
  type DiffRead,
  type ReviewRequestFacts,
  type ReviewSource,
} from '@webhook-gateway/deliver-forge-comment/review';
import { splitDiff } from '@webhook-gateway/review-kit';
import { z } from 'zod';
import type { BitbucketApi } from './bitbucket-api.js';
import { BitbucketApiError } from './rest-client.js';

/** A pull request as Cloud's webhook payloads and `GET …/pullrequests/{id}` give it. */
const pullRequestSchema = z.object({
  title: z.string(),
  draft: z.boolean().nullish(),
  author: z
    .object({ nickname: z.string().nullish(), display_name: z.string().nullish() })
    .nullish(),
  source: z.object({ commit: z.object({ hash: z.string().regex(COMMIT_SHA) }) }),
  destination: z.object({ commit: z.object({ hash: z.string().regex(COMMIT_SHA) }) }),
});

function factsOf(pull: z.infer<typeof pullRequestSchema>): ReviewRequestFacts {
  return {
    // The destination branch's commit: the rules are read there, never from the source branch.
    baseSha: pull.destination.commit.hash,
    headSha: pull.source.commit.hash,
    facts: {
      draft: pull.draft === true,
      // Bitbucket Cloud pull requests have no labels.
      labels: [],
      author: pull.author?.nickname ?? pull.author?.display_name ?? '',
      title: pull.title,
    },
  };
}

/**
 * The review source of pull request `id` of `repo` (`workspace/repo_slug`), read with `api`.
 *
 * @example bitbucketReviewSource({ repo: 'acme/app', id: 7, payload }, api, 'https://api.bitbucket.org/2.0')
 */
export function bitbucketReviewSource(
  pullRequest: { repo: string; id: number; payload: JsonObject },
  api: BitbucketApi,
  apiBase: string,
): ReviewSource {
  const { repo, id, payload } = pullRequest;
  const whole = async (range: string): Promise<DiffRead> => ({
    files: splitDiff(await api.pullRequestDiff(repo, id)),
    withoutPatch: [],
    range,
  });
  let asked: Promise<ReviewRequestFacts> | undefined;
  return {
    cacheKey: `bitbucket|${apiBase}|${repo}`,
    request() {
      asked ??= (async () => {
        const fromPayload = pullRequestSchema.safeParse(payload.pullrequest);
        if (fromPayload.success) return factsOf(fromPayload.data);
        const answer = pullRequestSchema.safeParse(await api.pullRequest(repo, id));
        if (!answer.success) {
          throw new Error(
            `review context: Bitbucket's pull request ${repo}#${id} names no source and destination commits`,
          );
        }
        return factsOf(answer.data);
      })();
      return asked;
    },
    async diff(since, request) {
      if (!COMMIT_SHA.test(since)) return whole('the whole pull request');
      const { headSha } = await request;
      try {
        return {
          // Bitbucket's two-commit spec is source..destination: the head's changes since `since`.
          files: splitDiff(await api.commitsDiff(repo, headSha, since)),
          withoutPatch: [],
          range: `changes since ${shortSha(since)} (the last reviewed head) to ${shortSha(headSha)}`,
        };
      } catch (error) {
        // The last reviewed head is gone (a force push): the whole pull request instead.
        if (!(error instanceof BitbucketApiError) || error.status !== 404) throw error;
        return whole(
          `the whole pull request (the last reviewed head ${shortSha(since)} is no longer known to Bitbucket)`,
        );
      }
    },
    file: (sha, path) => api.fileAt(repo, sha, path),
  };
}
