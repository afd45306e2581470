/**
 * One value a comment's destination needs (the repository, the pull or merge request number): the
 * route's `deliver_extra` wins, else the payload's field; either is validated so it can go into the
 * CLI's argv, and every error names the target and what to set.
 */
import type { JsonObject } from '@webhook-gateway/core';
import { CommentDeliveryError } from './errors.js';
import { extraValue, payloadValue, quoteValue, unrenderedField } from './extra-value.js';

/** A value found for a field, with where it came from for errors (`the payload's number`). */
export interface FoundValue {
  value: unknown;
  source: string;
}

export interface TargetField<T> {
  /** The `deliver_extra` keys that set it; the first one set wins. */
  extraKeys: readonly string[];
  /** The payload's value, when the route sets none. */
  fromPayload(payload: JsonObject): FoundValue | undefined;
  /** The error when neither gives one: what is missing and what to set. */
  missing: string;
  /** A template that fills it, for the error about a placeholder the payload could not fill. */
  example: string;
  /** The value ready for the CLI, or `undefined` when it is not valid. */
  parse(value: unknown): T | undefined;
  /** What a valid value is, said after the value: `is not a pull request number (…)`. */
  invalid: string;
}

/** The payload's value at a dotted `path`, named for errors; `undefined` when it has none. */
export function payloadField(payload: JsonObject, path: string): FoundValue | undefined {
  const value = payloadValue(payload, path);
  return value === undefined ? undefined : { value, source: `the payload's ${path}` };
}

function invalidTarget(target: string, message: string): CommentDeliveryError {
  return new CommentDeliveryError(target, 'invalid-target', message);
}

/**
 * Resolves and validates one field of `target`'s destination. Throws an `invalid-target`
 * `CommentDeliveryError` when it is missing, still a placeholder, or not valid.
 */
export function resolveTargetField<T>(
  target: string,
  field: TargetField<T>,
  extra: Record<string, unknown>,
  payload: JsonObject,
): T {
  const key = field.extraKeys.find((candidate) => extraValue(extra, candidate) !== undefined);
  const found =
    key === undefined
      ? field.fromPayload(payload)
      : { value: extraValue(extra, key), source: `deliver_extra.${key}` };
  if (found === undefined) throw invalidTarget(target, field.missing);
  const placeholder = unrenderedField(found.value);
  if (placeholder !== undefined) {
    throw invalidTarget(
      target,
      `${found.source} is ${quoteValue(found.value)}, but the payload has no field "${placeholder}"; point it at a field this event has (e.g. "${field.example}")`,
    );
  }
  const parsed = field.parse(found.value);
  if (parsed === undefined) {
    throw invalidTarget(target, `${found.source} ${quoteValue(found.value)} ${field.invalid}`);
  }
  return parsed;
}
