/**
 * Which pull request a Bitbucket Cloud target answers on: `deliver_extra.repo` /
 * `deliver_extra.pr_number` when the route sets them, else the payload's `repository.full_name`
 * (`workspace/repo_slug`) and `pullrequest.id`, its head commit and page as core reads Bitbucket
 * Cloud's payloads (`pullRequestOf`).
 */
import { pullRequestOf, type JsonObject } from '@webhook-gateway/core';
import {
  parsePositiveInteger,
  payloadField,
  resolveTargetField,
  type TargetField,
} from '@webhook-gateway/deliver-forge-comment/comments';

/** A pull request on Bitbucket Cloud. */
export interface BitbucketPullRequest {
  /** `workspace/repo_slug`. */
  repo: string;
  id: number;
  /** The source branch's head commit, when the payload names it. */
  headSha?: string;
  /** The pull request's page, when the payload names it. */
  url?: string;
}

/** A Cloud payload's pull request (`pullrequest`); Data Center's `pullRequest` is not one. */
function cloudPullRequest(payload: JsonObject) {
  return 'pullrequest' in payload ? pullRequestOf(payload, 'bitbucket') : undefined;
}

const REPO: TargetField<string> = {
  extraKeys: ['repo'],
  fromPayload: (payload) => payloadField(payload, 'repository.full_name'),
  missing:
    'the payload has no repository.full_name; set deliver_extra.repo (e.g. "{repository.full_name}" or "workspace/repo_slug")',
  example: '{repository.full_name}',
  parse: (value) =>
    typeof value === 'string' &&
    /^[^\s/]+\/[^\s/]+$/.test(value.trim()) &&
    !/(^|\/)\.\.?(\/|$)/.test(value.trim())
      ? value.trim()
      : undefined,
  invalid: 'is not a "workspace/repo_slug" name',
};

const ID: TargetField<number> = {
  extraKeys: ['pr_number'],
  fromPayload: (payload) => {
    const found = cloudPullRequest(payload);
    return found && { value: found.number, source: "the payload's pullrequest.id" };
  },
  missing:
    'the payload has no pullrequest.id, so this event is not about a Bitbucket Cloud pull request (a Data Center payload names pullRequest: these targets speak Cloud\'s API); set deliver_extra.pr_number (e.g. "{pullrequest.id}")',
  example: '{pullrequest.id}',
  parse: parsePositiveInteger,
  invalid: 'is not a pull request id (a positive integer)',
};

/** The pull request `target` answers on; throws an `invalid-target` error naming what to set. */
export function resolveBitbucketPullRequest(
  target: string,
  extra: Record<string, unknown>,
  payload: JsonObject,
): BitbucketPullRequest {
  // The id first: a Data Center payload is told apart by it, and has no repository.full_name.
  const id = resolveTargetField(target, ID, extra, payload);
  const repo = resolveTargetField(target, REPO, extra, payload);
  const found = cloudPullRequest(payload);
  return {
    repo,
    id,
    ...(found?.headSha ? { headSha: found.headSha } : {}),
    ...(found?.url ? { url: found.url } : {}),
  };
}
