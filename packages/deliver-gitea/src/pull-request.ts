/**
 * Which pull request a Gitea target answers on: `deliver_extra.repo` / `deliver_extra.pr_number`
 * when the route sets them, else the payload's repository and number as core reads Gitea's
 * payloads (`pullRequestOf`), and its head commit for a status.
 */
import { pullRequestOf, type JsonObject } from '@webhook-gateway/core';
import {
  parsePositiveInteger,
  payloadField,
  resolveTargetField,
  type TargetField,
} from '@webhook-gateway/deliver-forge-comment/comments';

/** A pull request on the instance. */
export interface GiteaPullRequest {
  /** `owner/repo`. */
  repo: string;
  number: number;
  /** The head commit the payload names (none for a comment event). */
  headSha?: string;
}

/** `owner/repo`: two names, no blanks, neither `.` nor `..` (they go into the API's path). */
export function isGiteaRepoName(value: string): boolean {
  const parts = value.split('/');
  return (
    parts.length === 2 &&
    parts.every((part) => /^[^\s/]+$/.test(part) && part !== '.' && part !== '..')
  );
}

const REPO: TargetField<string> = {
  extraKeys: ['repo'],
  fromPayload: (payload) => payloadField(payload, 'repository.full_name'),
  missing:
    'the payload has no repository.full_name; set deliver_extra.repo (e.g. "{repository.full_name}" or "owner/repo")',
  example: '{repository.full_name}',
  parse: (value) =>
    typeof value === 'string' && isGiteaRepoName(value.trim()) ? value.trim() : undefined,
  invalid: 'is not an "owner/repo" name',
};

const NUMBER: TargetField<number> = {
  extraKeys: ['pr_number'],
  fromPayload: (payload) => {
    const found = pullRequestOf(payload, 'gitea');
    return found && { value: found.number, source: "the payload's pull request number" };
  },
  missing:
    'the payload has no pull request number (pull_request.number, or issue.number of a pull request), so this event is not about a pull request; set deliver_extra.pr_number (e.g. "{number}")',
  example: '{number}',
  parse: parsePositiveInteger,
  invalid: 'is not a pull request number (a positive integer)',
};

/**
 * The pull request `target` answers on; throws an `invalid-target` error naming
 * what to set when it cannot be known.
 */
export function resolveGiteaPullRequest(
  target: string,
  extra: Record<string, unknown>,
  payload: JsonObject,
): GiteaPullRequest {
  const repo = resolveTargetField(target, REPO, extra, payload);
  const number = resolveTargetField(target, NUMBER, extra, payload);
  const headSha = pullRequestOf(payload, 'gitea')?.headSha;
  return { repo, number, ...(headSha ? { headSha } : {}) };
}
