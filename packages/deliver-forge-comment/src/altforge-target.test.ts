import { renderDeliverExtra } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { isAltforgeProjectPath, resolveAltforgeMergeRequest } from './altforge-target.js';
import { CommentDeliveryError } from './errors.js';
import { fixture } from './test-support/requests.js';

const mergeRequestHook = fixture('altforge/merge_request_open.json');

function failure(run: () => unknown): CommentDeliveryError {
  try {
    run();
  } catch (error) {
    if (error instanceof CommentDeliveryError) return error;
    throw error;
  }
  throw new Error('expected a CommentDeliveryError');
}

describe('resolveAltforgeMergeRequest', () => {
  it("defaults to the payload's project.path_with_namespace and object_attributes.iid", () => {
    expect(resolveAltforgeMergeRequest({}, mergeRequestHook)).toEqual({
      path: 'gitlabhq/gitlab-test',
      iid: 1,
    });
  });

  it("takes repo and mr_iid (or iid) from the route's rendered deliver_extra", () => {
    const extra = renderDeliverExtra(
      { repo: '{project.path_with_namespace}', mr_iid: '{object_attributes.iid}' },
      mergeRequestHook,
    );
    expect(resolveAltforgeMergeRequest(extra, mergeRequestHook)).toEqual({
      path: 'gitlabhq/gitlab-test',
      iid: 1,
    });
    expect(resolveAltforgeMergeRequest({ repo: 'group/sub/project', iid: '42' }, {})).toEqual({
      path: 'group/sub/project',
      iid: 42,
    });
  });

  it("uses merge_request.iid of a note hook, not the note's own attributes", () => {
    const noteHook = {
      object_kind: 'note',
      project: { path_with_namespace: 'g/p' },
      object_attributes: { id: 1244, note: 'hi' },
      merge_request: { iid: 7 },
    };
    expect(resolveAltforgeMergeRequest({}, noteHook)).toEqual({ path: 'g/p', iid: 7 });
  });

  it('refuses an event that is not about a merge request', () => {
    const issueHook = {
      object_kind: 'issue',
      project: { path_with_namespace: 'g/p' },
      object_attributes: { iid: 3 },
    };
    const error = failure(() => resolveAltforgeMergeRequest({}, issueHook));
    expect(error.message).toMatch(/^altforge_comment: the payload has no merge request iid/);
  });

  it('says the payload has no such field when a placeholder was left unrendered', () => {
    const extra = renderDeliverExtra({ mr_iid: '{merge_request.iid}' }, mergeRequestHook);
    const error = failure(() => resolveAltforgeMergeRequest(extra, mergeRequestHook));
    expect(error.message).toContain(
      'deliver_extra.mr_iid is "{merge_request.iid}", but the payload has no field "merge_request.iid"',
    );
  });

  it.each([
    'project',
    'group//project',
    '/group/project',
    'group/-project',
    'group/my project',
    'group/.hidden',
  ])('rejects the path %j', (repo) => {
    const error = failure(() => resolveAltforgeMergeRequest({ repo, mr_iid: 1 }, {}));
    expect(error.reason).toBe('invalid-target');
    expect(error.message).toContain('is not a "group/subgroup/project" path');
  });

  it.each(['0', '-1', 'x', 1.5])('rejects the iid %j', (iid) => {
    const error = failure(() => resolveAltforgeMergeRequest({ repo: 'g/p', mr_iid: iid }, {}));
    expect(error.message).toContain('is not a merge request iid (a positive integer)');
  });
});

describe('isAltforgeProjectPath', () => {
  it('accepts nested groups', () => {
    expect(isAltforgeProjectPath('gitlab-org/ci-cd/my_project.v2')).toBe(true);
  });
});
