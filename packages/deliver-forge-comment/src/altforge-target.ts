/**
 * Which merge request an `altforge_comment` goes to: `deliver_extra.repo` and
 * `deliver_extra.mr_iid` (or `iid`) when the route sets them, else the payload's project path and
 * merge request iid.
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

export const ALTFORGE_TARGET = 'altforge_comment';

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

function invalid(message: string): CommentDeliveryError {
  return new CommentDeliveryError(ALTFORGE_TARGET, 'invalid-target', message);
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

function checkPath(value: unknown, source: string): string {
  const field = unrenderedField(value);
  if (field !== undefined) throw unrendered(source, value, field, '{project.path_with_namespace}');
  if (typeof value !== 'string' || !isAltforgeProjectPath(value.trim())) {
    throw invalid(
      `${source} ${quoteValue(value)} is not a "group/subgroup/project" path (letters, digits, "_", "-", "."; at least one "/"; no spaces; no segment starting with "-" or ".")`,
    );
  }
  return value.trim();
}

function checkIid(value: unknown, source: string): number {
  const field = unrenderedField(value);
  if (field !== undefined) throw unrendered(source, value, field, '{object_attributes.iid}');
  const iid = parsePositiveInteger(value);
  if (iid === undefined) {
    throw invalid(`${source} ${quoteValue(value)} is not a merge request iid (a positive integer)`);
  }
  return iid;
}

/**
 * The payload's merge request iid: `object_attributes.iid` of a merge request hook, or
 * `merge_request.iid` of a hook about something on a merge request (a note, a pipeline).
 */
function payloadIid(payload: JsonObject): { value: unknown; source: string } | undefined {
  const kind = payloadValue(payload, 'object_kind');
  if (kind === undefined || kind === 'merge_request') {
    const value = payloadValue(payload, 'object_attributes.iid');
    if (value !== undefined) return { value, source: "the payload's object_attributes.iid" };
  }
  const value = payloadValue(payload, 'merge_request.iid');
  if (value !== undefined) return { value, source: "the payload's merge_request.iid" };
  return undefined;
}

/**
 * Resolves and validates the merge request a note goes to.
 *
 * @example resolveAltforgeMergeRequest({}, mergeRequestHook)
 * // { path: 'gitlabhq/gitlab-test', iid: 1 }
 */
export function resolveAltforgeMergeRequest(
  extra: Record<string, unknown>,
  payload: JsonObject,
): AltforgeMergeRequest {
  let path: string;
  const givenPath = extraValue(extra, 'repo');
  if (givenPath !== undefined) {
    path = checkPath(givenPath, 'deliver_extra.repo');
  } else {
    const fromPayload = payloadValue(payload, 'project.path_with_namespace');
    if (fromPayload === undefined) {
      throw invalid(
        'the payload has no project.path_with_namespace; set deliver_extra.repo (e.g. "{project.path_with_namespace}" or "group/project")',
      );
    }
    path = checkPath(fromPayload, "the payload's project.path_with_namespace");
  }

  let iid: number;
  const givenKey = extraValue(extra, 'mr_iid') !== undefined ? 'mr_iid' : 'iid';
  const givenIid = extraValue(extra, givenKey);
  if (givenIid !== undefined) {
    iid = checkIid(givenIid, `deliver_extra.${givenKey}`);
  } else {
    const fromPayload = payloadIid(payload);
    if (fromPayload === undefined) {
      throw invalid(
        'the payload has no merge request iid (object_attributes.iid of a merge request hook, or merge_request.iid), so this event is not about a merge request; set deliver_extra.mr_iid (e.g. "{object_attributes.iid}")',
      );
    }
    iid = checkIid(fromPayload.value, fromPayload.source);
  }
  return { path, iid };
}
