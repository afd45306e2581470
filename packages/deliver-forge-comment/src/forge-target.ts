/**
 * Which pull request a `forge_comment` goes to: `deliver_extra.repo` / `deliver_extra.pr_number`
 * when the route sets them, else the payload's repository and pull request number.
 */
import type { JsonObject } from '@webhook-gateway/core';
import { CommentDeliveryError } from './errors.js';
import {
  extraValue,
  parsePositiveInteger,
  payloadValue,
  quoteValue,
  unrenderedField,
} from './extra-value.js';

export const FORGE_TARGET = 'forge_comment';

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

function invalid(message: string): CommentDeliveryError {
  return new CommentDeliveryError(FORGE_TARGET, 'invalid-target', message);
}

function unrendered(
  source: string,
  value: unknown,
  field: string,
  example: string,
): CommentDeliveryError {
  return invalid(
    `${source} is ${quoteValue(value)}, but the payload has no field "${field}"; point it at a field this event has (e.g. "${example}")`,
  );
}

function checkRepo(value: unknown, source: string): string {
  const field = unrenderedField(value);
  if (field !== undefined) throw unrendered(source, value, field, '{repository.full_name}');
  if (typeof value !== 'string' || !isForgeRepoName(value.trim())) {
    throw invalid(
      `${source} ${quoteValue(value)} is not an "owner/repo" name (letters, digits, "-", "_", "."; exactly one "/"; no spaces; not starting with "-")`,
    );
  }
  return value.trim();
}

function checkPrNumber(value: unknown, source: string): number {
  const field = unrenderedField(value);
  if (field !== undefined) throw unrendered(source, value, field, '{number}');
  const prNumber = parsePositiveInteger(value);
  if (prNumber === undefined) {
    throw invalid(
      `${source} ${quoteValue(value)} is not a pull request number (a positive integer)`,
    );
  }
  return prNumber;
}

/** The payload's pull request number: `number`, `pull_request.number`, or a PR's `issue.number`. */
function payloadPrNumber(payload: JsonObject): { value: unknown; source: string } | undefined {
  for (const path of ['number', 'pull_request.number']) {
    const value = payloadValue(payload, path);
    if (value !== undefined) return { value, source: `the payload's ${path}` };
  }
  // issue_comment: comments on a pull request arrive as comments on its issue.
  if (payloadValue(payload, 'issue.pull_request') !== undefined) {
    const value = payloadValue(payload, 'issue.number');
    if (value !== undefined) return { value, source: `the payload's issue.number` };
  }
  return undefined;
}

/**
 * Resolves and validates the pull request a comment goes to.
 *
 * @example resolveForgePullRequest({ repo: 'octo/hello', pr_number: '2' }, payload)
 * // { repo: 'octo/hello', prNumber: 2 }
 */
export function resolveForgePullRequest(
  extra: Record<string, unknown>,
  payload: JsonObject,
): ForgePullRequest {
  let repo: string;
  const givenRepo = extraValue(extra, 'repo');
  if (givenRepo !== undefined) {
    repo = checkRepo(givenRepo, 'deliver_extra.repo');
  } else {
    const fromPayload = payloadValue(payload, 'repository.full_name');
    if (fromPayload === undefined) {
      throw invalid(
        'the payload has no repository.full_name; set deliver_extra.repo (e.g. "{repository.full_name}" or "owner/repo")',
      );
    }
    repo = checkRepo(fromPayload, "the payload's repository.full_name");
  }

  let prNumber: number;
  const givenNumber = extraValue(extra, 'pr_number');
  if (givenNumber !== undefined) {
    prNumber = checkPrNumber(givenNumber, 'deliver_extra.pr_number');
  } else {
    const fromPayload = payloadPrNumber(payload);
    if (fromPayload === undefined) {
      throw invalid(
        'the payload has no pull request number (number, pull_request.number, or issue.number of a pull request), so this event is not about a pull request; set deliver_extra.pr_number (e.g. "{number}")',
      );
    }
    prNumber = checkPrNumber(fromPayload.value, fromPayload.source);
  }
  return { repo, prNumber };
}
