/**
 * Bitbucket Data Center's side of a review context, through its REST API: the pull request's
 * facts (from the payload's `pullRequest`, else `GET …/pull-requests/{id}`), its raw diff
 * (`GET …/pull-requests/{id}.diff`), the diff since the last reviewed head
 * (`GET …/diff?since=…&until=…`), and files of the base commit (`GET …/raw/{path}?at=…`).
 */
import type { JsonObject } from '@webhook-gateway/core';
import {
  COMMIT_SHA,
  restReviewSource,
  type ReviewRequestFacts,
  type ReviewSource,
} from '@webhook-gateway/deliver-forge-comment/review';
import { z } from 'zod';
import type { DataCenterApi } from './data-center-api.js';
import { isNotFound } from './rest-client.js';

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
  return restReviewSource({
    cacheKey: `bitbucket-data-center|${apiBase}|${repo}`,
    forge: 'Bitbucket',
    pullRequestSchema,
    factsOf,
    fromPayload: payload.pullRequest,
    askPullRequest: () => api.pullRequest(repo, id),
    unreadable: `review context: Bitbucket Data Center's pull request ${repo}#${id} names no fromRef and toRef commits`,
    wholeDiff: () => api.pullRequestDiff(repo, id),
    diffSince: { read: (since, head) => api.commitsDiff(repo, since, head), isGone: isNotFound },
    fileAt: (sha, path) => api.fileAt(repo, sha, path),
  });
}
