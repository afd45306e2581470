/**
 * The generic shared-secret schemes: a timestamped HMAC (`X-Webhook-Signature-V2`: lowercase hex
 * HMAC-SHA256 of `"<X-Webhook-Timestamp>.<raw body>"`) and a Bearer token.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { bodyHmacMatches, digestsEqual, headerBytes, isWithinWindow } from '@webhook-gateway/core';

const SIGNATURE = /^[0-9a-f]{64}$/;

function hmacV2(secret: string, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
}

/** Signs bytes the way a V2 sender does: hex HMAC-SHA256 of `"<timestamp>.<body>"`. */
export function signGenericV2(body: Buffer | string, secret: string, timestamp: string): string {
  return hmacV2(secret, timestamp, typeof body === 'string' ? Buffer.from(body) : body).toString(
    'hex',
  );
}

export type GenericCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks a V2 request: a timestamp (Unix seconds) within `toleranceS` of `nowMs`, and the
 * signature under one of `secrets`, each compared in constant time. A missing timestamp is a
 * refusal: the V2 header is never excused to another scheme.
 */
export function verifyGenericV2(
  body: Buffer,
  signature: string,
  timestamp: string | undefined,
  secrets: readonly string[],
  nowMs: number,
  toleranceS: number,
): GenericCheck {
  if (timestamp === undefined) return { ok: false, reason: 'X-Webhook-Timestamp is missing' };
  if (!isWithinWindow(timestamp, 1000, nowMs, toleranceS)) {
    return { ok: false, reason: `the timestamp is not a Unix time within ${toleranceS} s` };
  }
  if (!SIGNATURE.test(signature)) return { ok: false, reason: 'malformed signature' };
  const given = Buffer.from(signature, 'hex');
  let valid = false;
  for (const secret of secrets) {
    if (digestsEqual(hmacV2(secret, timestamp, body), given)) valid = true;
  }
  return valid ? { ok: true } : { ok: false, reason: 'signature does not match' };
}

/**
 * True when a V1 `X-Webhook-Signature` (lowercase hex HMAC-SHA256 of the body, no timestamp) is
 * right under one of `secrets`. V1 alone is never a credential (a captured one replays forever);
 * it is checked only so that a wrong one beside a Bearer token refuses the request.
 */
export function verifyGenericV1(
  body: Buffer,
  signature: string,
  secrets: readonly string[],
): boolean {
  return SIGNATURE.test(signature) && bodyHmacMatches(body, Buffer.from(signature, 'hex'), secrets);
}

function digest(bytes: Buffer): Buffer {
  // Hashing first gives equal-length inputs, so the comparison leaks neither content nor length.
  return createHash('sha256').update(bytes).digest();
}

/**
 * True when the Bearer token (as the header carried it) is one of `secrets`: its bytes against
 * each secret's UTF-8 bytes, every secret compared in constant time.
 */
export function verifyBearerToken(token: string, secrets: readonly string[]): boolean {
  if (token === '') return false;
  const given = digest(headerBytes(token));
  let valid = false;
  for (const secret of secrets) {
    if (timingSafeEqual(digest(Buffer.from(secret, 'utf8')), given)) valid = true;
  }
  return valid;
}
