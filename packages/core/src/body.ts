/** Reads a request body as raw bytes under a hard limit, then parses it into a payload. */
import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import type { JsonObject } from './template.js';

export class BodyTooLargeError extends Error {
  constructor() {
    super('Payload too large');
  }
}

/**
 * The raw bytes of a body, never more than `limit` of them: a Content-Length over the limit is
 * refused before reading, and a chunked body is counted as it streams and cut at the limit.
 */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  const length = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined;
  if (length !== undefined && length > limit) throw new BodyTooLargeError();
  try {
    return await getRawBody(req, { limit, length });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw new BodyTooLargeError();
    throw error;
  }
}

/** Why a body could not become a payload; `status` is 400 or 415. */
export class BadBodyError extends Error {
  readonly status: 400 | 415;

  constructor(status: 400 | 415, message: string) {
    super(message);
    this.status = status;
  }
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** Deeper than any real webhook; deeper still would overflow the stack when re-serialised. */
export const MAX_JSON_DEPTH = 2000;

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return deepest;
}

/**
 * Whether `text` has more opening brackets than `MAX_JSON_DEPTH`, the least it needs to nest
 * that deep. Counting is a native search, far cheaper than `jsonDepth`'s scan, so real payloads
 * (a few hundred brackets) skip the scan.
 */
function mayNestTooDeeply(text: string): boolean {
  let brackets = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++brackets > MAX_JSON_DEPTH) return true;
    }
  }
  return false;
}

/** Parses JSON text into an object, or explains what is wrong in one line. */
function parseJsonObject(text: string): JsonObject {
  if (text.trim() === '') throw new BadBodyError(400, 'Empty body: expected a JSON object');
  if (mayNestTooDeeply(text) && jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new BadBodyError(400, `JSON nested too deeply: more than ${MAX_JSON_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadBodyError(400, `Invalid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new BadBodyError(400, `Payload must be a JSON object, got ${kind}`);
  }
  return value as JsonObject;
}

/** A payload and the JSON text it was parsed from (what a store keeps, with no re-serialising). */
export interface ParsedPayload {
  payload: JsonObject;
  json: string;
}

/**
 * Turns raw bytes into a payload according to the content type: `application/json` (any
 * charset; none given is taken as JSON) or the forge's form encoding (`payload=<json>`).
 */
export function parsePayload(contentType: string | undefined, raw: Buffer): JsonObject {
  return readPayload(contentType, raw).payload;
}

/** `parsePayload`, also returning the payload's JSON text. */
export function readPayload(contentType: string | undefined, raw: Buffer): ParsedPayload {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  // Bytes that are not valid UTF-8 still verified as sent; decode them leniently here.
  const text = decoder.decode(raw);
  if (
    mediaType === '' ||
    mediaType === 'application/json' ||
    /^application\/[a-z0-9.+-]+\+json$/.test(mediaType)
  ) {
    return { payload: parseJsonObject(text), json: text };
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null) throw new BadBodyError(400, 'Form body has no "payload" field');
    return { payload: parseJsonObject(payload), json: payload };
  }
  throw new BadBodyError(
    415,
    `Unsupported content type "${mediaType}": send application/json or application/x-www-form-urlencoded`,
  );
}
