/**
 * Reading `deliver_extra` values and payload fields that name where a comment goes. Values were
 * rendered from templates, so a placeholder left as written means the payload lacked that field.
 */
import { isMissing, lookupPath, type JsonObject } from '@webhook-gateway/core';

const PLACEHOLDER = /\{([A-Za-z0-9_.-]+)\}/;

/** A value the route set in `deliver_extra`, or `undefined` when it set none (or left it empty). */
export function extraValue(extra: Record<string, unknown>, key: string): unknown {
  const value = extra[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

/** The payload path of the first placeholder the template renderer could not fill, if any. */
export function unrenderedField(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return PLACEHOLDER.exec(value)?.[1];
}

/** The value at a dotted payload path, or `undefined` when the payload has nothing there. */
export function payloadValue(payload: JsonObject, path: string): unknown {
  const value = lookupPath(payload, path);
  return isMissing(value) || value === null ? undefined : value;
}

/** A positive integer from a number or a string of digits (surrounding blanks allowed). */
export function parsePositiveInteger(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string' || !/^[1-9][0-9]*$/.test(value.trim())) return undefined;
  const parsed = Number(value.trim());
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

/** A value quoted for an error message, shortened so a huge payload field cannot flood the log. */
export function quoteValue(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value));
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
