/**
 * Which pull request a `forge_comment` goes to: `deliver_extra.repo` / `deliver_extra.pr_number`
 * when the route sets them, else the payload's repository and pull request number.
 */
import { pullRequestOf, type JsonObject } from '@webhook-gateway/core';
import { parsePositiveInteger } from './extra-value.js';
import {
  payloadField,
  resolveTargetField,
  type FoundValue,
  type TargetField,
} from './target-field.js';
import { FORGE_TARGET } from './target-names.js';

/** A pull request on the forge, validated so it can go into the CLI's argv. */
export interface ForgePullRequest {
  /** `owner/repo`. */
  repo: string;
  prNumber: number;
}

// Owner: letters, digits, "-" (and "_" for enterprise-managed users); name: also ".".
// Neither may start with "-", so a value can never be read as a flag.
const OWNER = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const NAME = /^[A-Za-z0-9._][A-Za-z0-9._-]*$/;

/** True for an `owner/repo` name as the forge allows it: exactly one slash, no spaces. */
export function isForgeRepoName(value: string): boolean {
  const parts = value.split('/');
  if (parts.length !== 2) return false;
  const [owner = '', name = ''] = parts;
  return OWNER.test(owner) && NAME.test(name) && name !== '.' && name !== '..';
}

/** The payload's pull request number, as core reads the forge's payloads (`pullRequestOf`). */
function payloadPrNumber(payload: JsonObject): FoundValue | undefined {
  const pullRequest = pullRequestOf(payload, 'forge');
  return pullRequest && { value: pullRequest.number, source: "the payload's pull request number" };
}

const REPO: TargetField<string> = {
  extraKeys: ['repo'],
  fromPayload: (payload) => payloadField(payload, 'repository.full_name'),
  missing:
    'the payload has no repository.full_name; set deliver_extra.repo (e.g. "{repository.full_name}" or "owner/repo")',
  example: '{repository.full_name}',
  parse: (value) =>
    typeof value === 'string' && isForgeRepoName(value.trim()) ? value.trim() : undefined,
  invalid:
    'is not an "owner/repo" name (letters, digits, "-", "_", "."; exactly one "/"; no spaces; not starting with "-")',
};

const PR_NUMBER: TargetField<number> = {
  extraKeys: ['pr_number'],
  fromPayload: payloadPrNumber,
  missing:
    'the payload has no pull request number (pull_request.number, or issue.number of a pull request), so this event is not about a pull request; set deliver_extra.pr_number (e.g. "{number}")',
  example: '{number}',
  parse: parsePositiveInteger,
  invalid: 'is not a pull request number (a positive integer)',
};

/**
 * Resolves and validates the pull request a comment goes to.
 *
 * @example resolveForgePullRequest({ repo: 'octo/hello', pr_number: '2' }, payload)
 * // { repo: 'octo/hello', prNumber: 2 }
 */
export function resolveForgePullRequest(
  extra: Record<string, unknown>,
  payload: JsonObject,
  /** The target named in errors (`forge_comment`, `forge_review`). */
  target: string = FORGE_TARGET,
): ForgePullRequest {
  const repo = resolveTargetField(target, REPO, extra, payload);
  const prNumber = resolveTargetField(target, PR_NUMBER, extra, payload);
  return { repo, prNumber };
}
