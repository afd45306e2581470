/**
 * The pull (merge) request a delivery is about, for the deliveries table: repository, number and
 * the page on the forge (`html_url`, or the altforge's `web_url`/`url`). Read from the payload,
 * so only an http(s) address becomes a link.
 */
import { isMissing, lookupPath, type JsonObject } from '@webhook-gateway/core';

export interface PullRequestRef {
  repo: string;
  number: number;
  /** An http(s) address of the pull request's page, when the payload gives one. */
  url?: string;
}

function text(payload: JsonObject, path: string): string | undefined {
  const value = lookupPath(payload, path);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function positive(payload: JsonObject, path: string): number | undefined {
  const value = lookupPath(payload, path);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function webAddress(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds the pull request of a forge `pull_request` or PR comment event, or the merge request of
 * an altforge merge request hook or note.
 *
 * @example pullRequestOf(pullRequestOpened) // { repo: 'Codertocat/Hello-World', number: 2, url: 'https://github.com/…/pull/2' }
 */
export function pullRequestOf(payload: JsonObject): PullRequestRef | undefined {
  const forgeRepo = text(payload, 'repository.full_name');
  if (forgeRepo) {
    const fromPr = positive(payload, 'pull_request.number');
    if (fromPr !== undefined) {
      const url = webAddress(text(payload, 'pull_request.html_url'));
      return { repo: forgeRepo, number: fromPr, ...(url ? { url } : {}) };
    }
    const fromIssue = positive(payload, 'issue.number');
    if (fromIssue !== undefined && !isMissing(lookupPath(payload, 'issue.pull_request'))) {
      const url = webAddress(
        text(payload, 'issue.pull_request.html_url') ?? text(payload, 'issue.html_url'),
      );
      return { repo: forgeRepo, number: fromIssue, ...(url ? { url } : {}) };
    }
  }
  const project = text(payload, 'project.path_with_namespace');
  if (project) {
    const isMergeRequestHook = payload.object_kind === 'merge_request';
    const iid = isMergeRequestHook
      ? positive(payload, 'object_attributes.iid')
      : positive(payload, 'merge_request.iid');
    if (iid !== undefined) {
      const url = webAddress(
        isMergeRequestHook
          ? (text(payload, 'object_attributes.web_url') ?? text(payload, 'object_attributes.url'))
          : (text(payload, 'merge_request.web_url') ?? text(payload, 'merge_request.url')),
      );
      return { repo: project, number: iid, ...(url ? { url } : {}) };
    }
  }
  return undefined;
}
