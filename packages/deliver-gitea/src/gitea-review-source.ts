/**
 * Gitea's (and Forgejo's) side of a review context, over the REST API: the pull request's facts
 * (`GET /repos/{o}/{r}/pulls/{n}` when the payload lacks them), its diff
 * (`GET /repos/{o}/{r}/pulls/{n}.diff`) and files of the base commit
 * (`GET /repos/{o}/{r}/raw/{path}?ref={sha}`). Gitea's compare endpoint lists commits but gives
 * no diff, so an incremental review reads the whole pull request's diff and says so.
 */
import type { JsonObject } from '@webhook-gateway/core';
import {
  COMMIT_SHA,
  restReviewSource,
  type ReviewRequestFacts,
  type ReviewSource,
} from '@webhook-gateway/deliver-forge-comment/review';
import { z } from 'zod';
import type { GiteaApi } from './gitea-api.js';

/** A pull request as the webhook payload and `GET /repos/{o}/{r}/pulls/{n}` give it. */
const pullSchema = z.object({
  title: z.string(),
  draft: z.boolean().nullish(),
  user: z.object({ login: z.string() }).nullish(),
  labels: z.array(z.object({ name: z.string() })).nullish(),
  base: z.object({ sha: z.string().regex(COMMIT_SHA) }),
  head: z.object({ sha: z.string().regex(COMMIT_SHA) }),
});

function factsOf(pull: z.infer<typeof pullSchema>): ReviewRequestFacts {
  return {
    baseSha: pull.base.sha,
    headSha: pull.head.sha,
    facts: {
      draft: pull.draft === true,
      labels: (pull.labels ?? []).map((label) => label.name),
      author: pull.user?.login ?? '',
      title: pull.title,
    },
  };
}

/**
 * The review source of `repo`'s pull request `number` on the instance `api` calls; `apiBase`
 * keys its base files apart from another instance's repository of the same name.
 *
 * @example giteaReviewSource({ repo: 'octo/hello', number: 2, payload }, api, 'https://gitea.example.com/api/v1')
 */
export function giteaReviewSource(
  pullRequest: { repo: string; number: number; payload: JsonObject },
  api: GiteaApi,
  apiBase: string,
): ReviewSource {
  const { repo, number, payload } = pullRequest;
  return restReviewSource({
    cacheKey: `gitea|${apiBase}|${repo}`,
    forge: 'Gitea',
    pullRequestSchema: pullSchema,
    factsOf,
    // A comment on the pull request: its payload carries the issue, not the pull request.
    fromPayload: payload.pull_request,
    askPullRequest: () => api.pullRequest(repo, number),
    unreadable: `Gitea's pull request ${repo}#${number} has no base and head commits`,
    wholeDiff: () => api.pullRequestDiff(repo, number),
    // No `diffSince`: Gitea's compare endpoint lists commits but gives no diff.
    fileAt: (sha, path) => api.rawFile(repo, sha, path),
  });
}
