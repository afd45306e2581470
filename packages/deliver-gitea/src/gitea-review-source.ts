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
  shortSha,
  type ReviewRequestFacts,
  type ReviewSource,
} from '@webhook-gateway/deliver-forge-comment/review';
import { splitDiff } from '@webhook-gateway/review-kit';
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
  let asked: Promise<ReviewRequestFacts> | undefined;
  return {
    cacheKey: `gitea|${apiBase}|${repo}`,
    request() {
      asked ??= (async () => {
        const fromPayload = pullSchema.safeParse(payload.pull_request);
        if (fromPayload.success) return factsOf(fromPayload.data);
        // A comment on the pull request: its payload carries the issue, not the pull request.
        const answer = pullSchema.safeParse(await api.pullRequest(repo, number));
        if (!answer.success) {
          throw new Error(`Gitea's pull request ${repo}#${number} has no base and head commits`);
        }
        return factsOf(answer.data);
      })();
      return asked;
    },
    async diff(since) {
      const files = splitDiff(await api.pullRequestDiff(repo, number));
      const range = COMMIT_SHA.test(since)
        ? `the whole pull request (Gitea's API gives no diff between two commits, so not only the changes since ${shortSha(since)}, the last reviewed head)`
        : 'the whole pull request';
      return { files, withoutPatch: [], range };
    },
    file: (sha, path) => api.rawFile(repo, sha, path),
  };
}
