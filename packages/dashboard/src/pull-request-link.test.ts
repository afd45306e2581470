import fs from 'node:fs';
import type { JsonObject } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { pullRequestOf } from './pull-request-link.js';

const fixture = (name: string): JsonObject =>
  JSON.parse(
    fs.readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url), 'utf8'),
  ) as JsonObject;

describe('pullRequestOf', () => {
  it('reads a forge pull request and its html_url', () => {
    expect(pullRequestOf(fixture('forge/pull_request_opened.json'))).toEqual({
      repo: 'Codertocat/Hello-World',
      number: 2,
      url: 'https://github.com/Codertocat/Hello-World/pull/2',
    });
  });

  it('reads the pull request a comment is on', () => {
    expect(pullRequestOf(fixture('forge/issue_comment_created.on-pull-request.json'))).toEqual({
      repo: 'abc/def-ci-webhook-test',
      number: 2,
      url: 'https://github.com/abc/def-ci-webhook-test/pull/2',
    });
    expect(pullRequestOf(fixture('forge/issue_comment_created.json'))).toBeUndefined();
  });

  it('reads an altforge merge request hook and a note on a merge request', () => {
    expect(pullRequestOf(fixture('altforge/merge_request_open.json'))).toMatchObject({
      repo: 'gitlabhq/gitlab-test',
      number: 1,
    });
    expect(pullRequestOf(fixture('altforge/note_create.json'))).toMatchObject({
      repo: 'gitlab-org/gitlab-test',
      number: 1,
    });
  });

  it('links only http(s) addresses', () => {
    const payload = fixture('forge/pull_request_opened.json');
    const pullRequest = {
      ...(payload.pull_request as JsonObject),
      html_url: 'javascript:alert(1)',
    };
    expect(pullRequestOf({ ...payload, pull_request: pullRequest })).toEqual({
      repo: 'Codertocat/Hello-World',
      number: 2,
    });
  });
});
