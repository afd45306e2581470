/**
 * Which pull request a Bitbucket target answers on, and on which Bitbucket: a Data Center
 * payload names it `pullRequest` (`pr:*` events), a Cloud one `pullrequest`. `deliver_extra.repo`
 * / `deliver_extra.pr_number` win when the route sets them; else the payload's repository
 * (Cloud's `repository.full_name`, `workspace/repo_slug`; Data Center's destination repository,
 * `PROJECT/repo_slug`) and id, with its head commit and page as core reads them (`pullRequestOf`).
 */
import { pullRequestOf, type JsonObject } from '@webhook-gateway/core';
import {
  parsePositiveInteger,
  payloadField,
  resolveTargetField,
  type TargetField,
} from '@webhook-gateway/deliver-forge-comment/comments';

/** Bitbucket Cloud (`/2.0`) or Bitbucket Data Center (`/rest/api/1.0`). */
export type BitbucketFlavour = 'cloud' | 'data-center';

/** A pull request on Bitbucket. */
export interface BitbucketPullRequest {
  flavour: BitbucketFlavour;
  /** `workspace/repo_slug` (Cloud) or `PROJECT/repo_slug` (Data Center). */
  repo: string;
  id: number;
  /** The source branch's head commit, when the payload names it. */
  headSha?: string;
  /** The pull request's page, when the payload names it. */
  url?: string;
}

/**
 * Data Center when the payload names `pullRequest` (and not Cloud's `pullrequest`), else Cloud.
 *
 * @example bitbucketFlavourOf({ eventKey: 'pr:opened', pullRequest: { id: 1 } }) // 'data-center'
 */
export function bitbucketFlavourOf(payload: JsonObject): BitbucketFlavour {
  return 'pullRequest' in payload && !('pullrequest' in payload) ? 'data-center' : 'cloud';
}

const REPO_NAME = (value: unknown) =>
  typeof value === 'string' &&
  /^[^\s/]+\/[^\s/]+$/.test(value.trim()) &&
  !/(^|\/)\.\.?(\/|$)/.test(value.trim())
    ? value.trim()
    : undefined;

const CLOUD_REPO: TargetField<string> = {
  extraKeys: ['repo'],
  fromPayload: (payload) => payloadField(payload, 'repository.full_name'),
  missing:
    'the payload has no repository.full_name; set deliver_extra.repo (e.g. "{repository.full_name}" or "workspace/repo_slug")',
  example: '{repository.full_name}',
  parse: REPO_NAME,
  invalid: 'is not a "workspace/repo_slug" name',
};

const DATA_CENTER_REPO: TargetField<string> = {
  extraKeys: ['repo'],
  fromPayload: (payload) => {
    const found = pullRequestOf(payload, 'bitbucket');
    return found && { value: found.repo, source: "the payload's pullRequest.toRef.repository" };
  },
  missing:
    'the payload\'s pullRequest.toRef.repository names no project key and slug; set deliver_extra.repo (e.g. "PROJECT/repo_slug")',
  example: '{pullRequest.toRef.repository.project.key}/{pullRequest.toRef.repository.slug}',
  parse: REPO_NAME,
  invalid: 'is not a "PROJECT/repo_slug" name',
};

const CLOUD_ID: TargetField<number> = {
  extraKeys: ['pr_number'],
  fromPayload: (payload) => {
    const found = 'pullrequest' in payload ? pullRequestOf(payload, 'bitbucket') : undefined;
    return found && { value: found.number, source: "the payload's pullrequest.id" };
  },
  missing:
    'the payload has no pullrequest.id (nor a Data Center pullRequest.id), so this event is not about a Bitbucket pull request; set deliver_extra.pr_number (e.g. "{pullrequest.id}")',
  example: '{pullrequest.id}',
  parse: parsePositiveInteger,
  invalid: 'is not a pull request id (a positive integer)',
};

const DATA_CENTER_ID: TargetField<number> = {
  extraKeys: ['pr_number'],
  fromPayload: (payload) => payloadField(payload, 'pullRequest.id'),
  missing:
    'the payload has no pullRequest.id; set deliver_extra.pr_number (e.g. "{pullRequest.id}")',
  example: '{pullRequest.id}',
  parse: parsePositiveInteger,
  invalid: 'is not a pull request id (a positive integer)',
};

/** The pull request `target` answers on; throws an `invalid-target` error naming what to set. */
export function resolveBitbucketPullRequest(
  target: string,
  extra: Record<string, unknown>,
  payload: JsonObject,
): BitbucketPullRequest {
  const flavour = bitbucketFlavourOf(payload);
  const cloud = flavour === 'cloud';
  // The id first: an event about no pull request is told so before its repository is looked for.
  const id = resolveTargetField(target, cloud ? CLOUD_ID : DATA_CENTER_ID, extra, payload);
  const repo = resolveTargetField(target, cloud ? CLOUD_REPO : DATA_CENTER_REPO, extra, payload);
  const found =
    !cloud || 'pullrequest' in payload ? pullRequestOf(payload, 'bitbucket') : undefined;
  return {
    flavour,
    repo,
    id,
    ...(found?.headSha ? { headSha: found.headSha } : {}),
    ...(found?.url ? { url: found.url } : {}),
  };
}
