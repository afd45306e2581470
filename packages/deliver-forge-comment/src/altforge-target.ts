/**
 * Which merge request an `altforge_comment` goes to: `deliver_extra.repo` and
 * `deliver_extra.mr_iid` (or `iid`) when the route sets them, else the payload's project path and
 * merge request iid.
 */
import type { JsonObject } from '@webhook-gateway/core';
import { parsePositiveInteger, payloadValue } from './extra-value.js';
import {
  payloadField,
  resolveTargetField,
  type FoundValue,
  type TargetField,
} from './target-field.js';
import { ALTFORGE_TARGET } from './target-names.js';

/** A merge request on the altforge, validated so it can go into the CLI's argv. */
export interface AltforgeMergeRequest {
  /** `group/subgroup/project`. */
  path: string;
  iid: number;
}

// One path segment: letters, digits, "_", "-", "."; not starting with "-" or ".".
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** True for a project path as the altforge allows it: `group[/subgroup…]/project`, no spaces. */
export function isAltforgeProjectPath(value: string): boolean {
  const segments = value.split('/');
  return segments.length >= 2 && segments.every((segment) => SEGMENT.test(segment));
}

/**
 * The payload's merge request iid: `object_attributes.iid` of a merge request hook, or
 * `merge_request.iid` of a hook about something on a merge request (a note, a pipeline).
 */
function payloadIid(payload: JsonObject): FoundValue | undefined {
  const kind = payloadValue(payload, 'object_kind');
  const ofMergeRequestHook =
    kind === undefined || kind === 'merge_request'
      ? payloadField(payload, 'object_attributes.iid')
      : undefined;
  return ofMergeRequestHook ?? payloadField(payload, 'merge_request.iid');
}

const PROJECT_PATH: TargetField<string> = {
  extraKeys: ['repo'],
  fromPayload: (payload) => payloadField(payload, 'project.path_with_namespace'),
  missing:
    'the payload has no project.path_with_namespace; set deliver_extra.repo (e.g. "{project.path_with_namespace}" or "group/project")',
  example: '{project.path_with_namespace}',
  parse: (value) =>
    typeof value === 'string' && isAltforgeProjectPath(value.trim()) ? value.trim() : undefined,
  invalid:
    'is not a "group/subgroup/project" path (letters, digits, "_", "-", "."; at least one "/"; no spaces; no segment starting with "-" or ".")',
};

const MR_IID: TargetField<number> = {
  extraKeys: ['mr_iid', 'iid'],
  fromPayload: payloadIid,
  missing:
    'the payload has no merge request iid (object_attributes.iid of a merge request hook, or merge_request.iid), so this event is not about a merge request; set deliver_extra.mr_iid (e.g. "{object_attributes.iid}")',
  example: '{object_attributes.iid}',
  parse: parsePositiveInteger,
  invalid: 'is not a merge request iid (a positive integer)',
};

/**
 * Resolves and validates the merge request a note goes to.
 *
 * @example resolveAltforgeMergeRequest({}, mergeRequestHook)
 * // { path: 'gitlabhq/gitlab-test', iid: 1 }
 */
export function resolveAltforgeMergeRequest(
  extra: Record<string, unknown>,
  payload: JsonObject,
  /** The target named in errors (`altforge_comment`, `altforge_review`). */
  target: string = ALTFORGE_TARGET,
): AltforgeMergeRequest {
  const path = resolveTargetField(target, PROJECT_PATH, extra, payload);
  const iid = resolveTargetField(target, MR_IID, extra, payload);
  return { path, iid };
}
