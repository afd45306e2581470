/**
 * Bitbucket Data Center's side of a review context, through its REST API: the pull request's
 * facts (from the payload's `pullRequest`, else `GET …/pull-requests/{id}`), its raw diff
 * (`GET …/pull-requests/{id}.diff`), the diff since the last reviewed head
 * (`GET …/diff?since=…&until=…`), and files of the base commit (`GET …/raw/{path}?at=…`).
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
import type { DataCenterApi } from './data-center-api.js';
import { BitbucketApiError } from './rest-client.js';

/** A pull request as Data Center's webhook payloads and `GET …/pull-requests/{id}` give it. */
const pullRequestSchema = z.object({
  title: z.string(),
  draft: z.boolean().nullish(),
  author: z
    .object({ user: z.object({ name: z.string().nullish(), slug: z.string().nullish() }) })
    .nullish(),
  fromRef: z.object({ latestCommit: z.string().regex(COMMIT_SHA) }),
  toRef: z.object({ latestCommit: z.string().regex(COMMIT_SHA) }),
});

function factsOf(pull: z.infer<typeof pullRequestSchema>): ReviewRequestFacts {
  return {
    // The destination branch's head: the rules are read there, never from the source branch.
    baseSha: pull.toRef.latestCommit,
    headSha: pull.fromRef.latestCommit,
    facts: {
      draft: pull.draft === true,
      // Data Center pull requests have no labels.
      labels: [],
      author: pull.author?.user.name ?? pull.author?.user.slug ?? '',
      title: pull.title,
    },
  };
}

/**
 * The review source of pull request `id` of `repo` (`PROJECT/repo_slug`), read with `api`.
 *
 * @example dataCenterReviewSource({ repo: 'PROJ/app', id: 7, payload }, api, 'https://bitbucket.example.com/rest/api/1.0')
 */
export function dataCenterReviewSource(
  pullRequest: { repo: string; id: number; payload: JsonObject },
  api: DataCenterApi,
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
    cacheKey: `bitbucket-data-center|${apiBase}|${repo}`,
    request() {
      asked ??= (async () => {
        const fromPayload = pullRequestSchema.safeParse(payload.pullRequest);
        if (fromPayload.success) return factsOf(fromPayload.data);
        const answer = pullRequestSchema.safeParse(await api.pullRequest(repo, id));
        if (!answer.success) {
          throw new Error(
            `review context: Bitbucket Data Center's pull request ${repo}#${id} names no fromRef and toRef commits`,
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
          files: splitDiff(await api.commitsDiff(repo, since, headSha)),
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
