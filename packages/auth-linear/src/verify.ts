/**
 * The Linear signature: `Linear-Signature` is the lowercase hex HMAC-SHA256 of the raw body, and
 * the body's `webhookTimestamp` (milliseconds) must be recent, so a captured request cannot be
 * sent again later.
 */
import { createHmac } from 'node:crypto';
import { bodyHmacMatches, isWithinWindow } from '@webhook-gateway/core';

const SIGNATURE = /^[0-9a-f]{64}$/;

/** Signs bytes the way Linear does. */
export function signLinearBody(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export type LinearCheck = { ok: true } | { ok: false; reason: string };

/** The body's `webhookTimestamp` as digits, or undefined when the body has no such number. */
function webhookTimestampOf(body: Buffer): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const value = (parsed as Record<string, unknown>).webhookTimestamp;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? String(value)
    : undefined;
}

/**
 * Checks a Linear request: the signature under one of `secrets` (each compared in constant time),
 * then `webhookTimestamp` within `toleranceS` of `nowMs`. Malformed input is a refusal.
 */
export function verifyLinearRequest(
  body: Buffer,
  signature: string,
  secrets: readonly string[],
  nowMs: number,
  toleranceS: number,
): LinearCheck {
  if (!SIGNATURE.test(signature)) return { ok: false, reason: 'malformed signature' };
  const given = Buffer.from(signature, 'hex');
  const valid = bodyHmacMatches(body, given, secrets);
  if (!valid) return { ok: false, reason: 'signature does not match' };
  const timestamp = webhookTimestampOf(body);
  if (timestamp === undefined || !isWithinWindow(timestamp, 1, nowMs, toleranceS)) {
    return { ok: false, reason: `webhookTimestamp is not a time within ${toleranceS} s` };
  }
  return { ok: true };
}
