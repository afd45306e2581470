import { renderDeliverExtra } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { CommentDeliveryError } from './errors.js';
import { isForgeRepoName, resolveForgePullRequest } from './forge-target.js';
import { fixture } from './test-support/requests.js';

const pullRequestOpened = fixture('forge/pull_request_opened.json');
const issueComment = fixture('forge/issue_comment_created.json');

/** deliver_extra as the worker renders it before the target sees it. */
const rendered = (extra: Record<string, unknown>, payload = pullRequestOpened) =>
  renderDeliverExtra(extra, payload);

function failure(run: () => unknown): CommentDeliveryError {
  try {
    run();
  } catch (error) {
    if (error instanceof CommentDeliveryError) return error;
    throw error;
  }
  throw new Error('expected a CommentDeliveryError');
}

describe('resolveForgePullRequest', () => {
  it("takes repo and pr_number from the route's rendered deliver_extra", () => {
    const extra = rendered({ repo: '{repository.full_name}', pr_number: '{number}' });
    expect(resolveForgePullRequest(extra, pullRequestOpened)).toEqual({
      repo: 'Codertocat/Hello-World',
      prNumber: 2,
    });
  });

  it('accepts a literal repo and a numeric pr_number', () => {
    expect(resolveForgePullRequest({ repo: 'octo/site.github.io', pr_number: 17 }, {})).toEqual({
      repo: 'octo/site.github.io',
      prNumber: 17,
    });
  });

  it("defaults to the payload's repository.full_name and number", () => {
    expect(resolveForgePullRequest({}, pullRequestOpened)).toEqual({
      repo: 'Codertocat/Hello-World',
      prNumber: 2,
    });
  });

  it("defaults to pull_request.number, then a pull request's issue.number", () => {
    expect(
      resolveForgePullRequest(
        {},
        { repository: { full_name: 'o/r' }, pull_request: { number: 5 } },
      ),
    ).toEqual({ repo: 'o/r', prNumber: 5 });
    const onPullRequest = {
      ...issueComment,
      issue: { ...(issueComment.issue as object), pull_request: { url: 'https://x' } },
    };
    expect(resolveForgePullRequest({}, onPullRequest)).toEqual({
      repo: 'Codertocat/Hello-World',
      prNumber: 1,
    });
  });

  it('refuses a comment on a plain issue unless the route names the pull request', () => {
    const error = failure(() => resolveForgePullRequest({}, issueComment));
    expect(error.reason).toBe('invalid-target');
    expect(error.message).toMatch(/^forge_comment: the payload has no pull request number/);
    expect(error.message).toContain('deliver_extra.pr_number');
  });

  it('says the payload has no such field when a placeholder was left unrendered', () => {
    const extra = rendered({ repo: '{repository.full_name}', pr_number: '{number}' }, issueComment);
    const error = failure(() => resolveForgePullRequest(extra, issueComment));
    expect(error.message).toBe(
      'forge_comment: deliver_extra.pr_number is "{number}", but the payload has no field "number"; point it at a field this event has (e.g. "{number}")',
    );
    const repoError = failure(() =>
      resolveForgePullRequest(rendered({ repo: '{repo.name}', pr_number: '2' }), pullRequestOpened),
    );
    expect(repoError.message).toContain(
      'deliver_extra.repo is "{repo.name}", but the payload has no field "repo.name"',
    );
  });

  it.each([
    ['no slash', 'hello-world'],
    ['two slashes', 'a/b/c'],
    ['a space', 'octo/hello world'],
    ['a leading dash', '-x/repo'],
    ['a name with a leading dash', 'octo/--help'],
    ['an empty owner', '/repo'],
    ['a dot-dot name', 'octo/..'],
    ['a URL', 'https://github.com/o/r'],
  ])('rejects a repo with %s', (_, repo) => {
    const error = failure(() => resolveForgePullRequest({ repo, pr_number: '1' }, {}));
    expect(error.reason).toBe('invalid-target');
    expect(error.message).toContain(
      `deliver_extra.repo ${JSON.stringify(repo)} is not an "owner/repo" name`,
    );
  });

  it.each(['0', '-3', '1.5', 'abc', '2; rm -rf /', '99999999999999999999', 0, 2.5, true])(
    'rejects pr_number %j',
    (prNumber) => {
      const error = failure(() =>
        resolveForgePullRequest({ repo: 'o/r', pr_number: prNumber }, {}),
      );
      expect(error.message).toContain('is not a pull request number (a positive integer)');
    },
  );

  it('validates values taken from the payload too, naming where they came from', () => {
    const error = failure(() =>
      resolveForgePullRequest({}, { repository: { full_name: 'bad name/x' }, number: 2 }),
    );
    expect(error.message).toContain(`the payload's repository.full_name "bad name/x"`);
  });

  it('treats an empty deliver_extra value as not set', () => {
    expect(resolveForgePullRequest({ repo: '', pr_number: ' ' }, pullRequestOpened)).toEqual({
      repo: 'Codertocat/Hello-World',
      prNumber: 2,
    });
  });
});

describe('isForgeRepoName', () => {
  it('accepts the names the forge allows', () => {
    for (const name of ['o/r', 'Codertocat/Hello-World', 'my-org/.github', 'a_b/c.d-e_f']) {
      expect(isForgeRepoName(name)).toBe(true);
    }
  });
});
