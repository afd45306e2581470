/**
 * How Hermes' filter specs read and compare values (pure): a field's value out of the payload,
 * the event or the headers; equality as Python's `==`; a value's text as Python's `str`, with
 * objects and lists as sorted JSON (`json.dumps(..., sort_keys=True)`).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { JsonObject } from './template.js';

/** What a field names when nothing is there. */
export const ABSENT: unique symbol = Symbol('absent');
export type FieldValue = unknown;

/** What a spec's field is read from. */
export interface FilterInput {
  payload: JsonObject;
  event: string;
  headers: IncomingHttpHeaders;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value a field names, or `ABSENT`. `event` (and `event_type`) is the event type,
 * `headers.<name>` a header (any case), `payload.<path>` the payload's own `payload` object when
 * it has one, else the payload; any other first segment starts at the payload. A number segment
 * indexes a list.
 *
 * @example resolveField('pull_request.labels.0.name', input)
 */
export function resolveField(field: string, input: FilterInput): FieldValue {
  const parts = field
    .trim()
    .split('.')
    .filter((part) => part !== '');
  if (parts.length === 0) return ABSENT;
  let value: unknown;
  const first = parts[0];
  if (first === 'payload') {
    const inner = input.payload.payload;
    value = Object.prototype.hasOwnProperty.call(input.payload, 'payload') ? inner : input.payload;
    parts.shift();
  } else if (first === 'event' || first === 'event_type') {
    value = input.event;
    parts.shift();
  } else if (first === 'headers') {
    parts.shift();
    const name = parts.shift();
    if (name === undefined) return { ...input.headers };
    const header = input.headers[name.toLowerCase()];
    if (header === undefined) return ABSENT;
    value = header;
  } else {
    value = input.payload;
  }
  for (const part of parts) {
    if (isPlainObject(value)) {
      if (!Object.prototype.hasOwnProperty.call(value, part)) return ABSENT;
      value = value[part];
    } else if (Array.isArray(value) && /^[0-9]+$/.test(part)) {
      const index = Number(part);
      if (index >= value.length) return ABSENT;
      value = value[index];
    } else {
      return ABSENT;
    }
  }
  return value;
}

/** Python's `==` on JSON values: `1 == 1.0`, `True == 1`, lists and objects compared deeply. */
export function pythonEquals(a: unknown, b: unknown): boolean {
  const numeric = (v: unknown): v is number | boolean =>
    typeof v === 'number' || typeof v === 'boolean';
  if (numeric(a) && numeric(b)) return Number(a) === Number(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => pythonEquals(item, b[index]));
  }
  const aKeys = Object.keys(a);
  const bObject = b as Record<string, unknown>;
  if (aKeys.length !== Object.keys(bObject).length) return false;
  return aKeys.every(
    (key) =>
      Object.prototype.hasOwnProperty.call(bObject, key) &&
      pythonEquals((a as Record<string, unknown>)[key], bObject[key]),
  );
}

/** A JSON string as Python writes it: non-ASCII characters escaped (`ensure_ascii`). */
function pythonJsonString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u0080-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `json.dumps(value, sort_keys=True)`: `, ` and `: ` separators, keys sorted. */
export function pythonSortedJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return pythonJsonString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'NaN';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(pythonSortedJson).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) =>
          `${pythonJsonString(key)}: ${pythonSortedJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(', ')}}`;
  }
  return 'null';
}

/**
 * A value as the text `contains` and `regex` search: strings as they are, objects and lists as
 * sorted JSON, the rest as Python prints them (`True`, `None`).
 */
export function filterText(value: unknown): string {
  if (value === ABSENT) return '';
  if (typeof value === 'string') return value;
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return pythonSortedJson(value);
}

/** Python's `needle in value`: a list's item, an object's key, else a substring of its text. */
export function pythonContains(value: unknown, needle: unknown): boolean {
  if (value === ABSENT) return false;
  if (Array.isArray(value)) return value.some((item) => pythonEquals(item, needle));
  if (isPlainObject(value))
    return typeof needle === 'string' && Object.prototype.hasOwnProperty.call(value, needle);
  return filterText(value).includes(filterText(needle));
}
