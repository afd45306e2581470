/**
 * Bitbucket Cloud's side of a review context, through its REST API: the pull request's facts
 * (from the payload's `pullrequest`, else `GET …/pullrequests/{id}`), its diff
 * (`GET …/pullrequests/{id}/diff`, the redirect followed), the diff since the last reviewed head
 * (`GET …/diff/{head}..{since}`), and files of the base commit (`GET …/src/{commit}/{path}`).
 */
import type { JsonObject } from '@webhook-gateway/core';
import {
  COMMIT_SHA,
  restReviewSource,
  type ReviewRequestFacts,
  type ReviewSource,
} from '@webhook-gateway/deliver-forge-comment/review';
import { z } from 'zod';
import type { BitbucketApi } from './bitbucket-api.js';
import { isNotFound } from './rest-client.js';

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
  return restReviewSource({
    cacheKey: `bitbucket|${apiBase}|${repo}`,
    forge: 'Bitbucket',
    pullRequestSchema,
    factsOf,
    fromPayload: payload.pullrequest,
    askPullRequest: () => api.pullRequest(repo, id),
    unreadable: `review context: Bitbucket's pull request ${repo}#${id} names no source and destination commits`,
    wholeDiff: () => api.pullRequestDiff(repo, id),
    diffSince: {
      // Bitbucket's two-commit spec is source..destination: the head's changes since `since`.
      read: (since, head) => api.commitsDiff(repo, head, since),
      isGone: isNotFound,
    },
    fileAt: (sha, path) => api.fileAt(repo, sha, path),
  });
}
