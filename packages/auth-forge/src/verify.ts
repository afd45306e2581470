/** The forge signature: `sha256=<lowercase hex>` HMAC-SHA256 of the raw body bytes. */
import { createHmac } from 'node:crypto';
import { bodyHmacMatches } from '@webhook-gateway/core';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;

/** Signs bytes the way the forge does. */
export function signForgeBody(body: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * True when `signature` is the HMAC of `body` under one of `secrets`. Every secret is checked
 * in constant time (no early exit on a match), and a malformed header never throws.
 */
export function verifyForgeSignature(
  body: Buffer,
  signature: string,
  secrets: readonly string[],
): boolean {
  const match = SIGNATURE.exec(signature.trim());
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1], 'hex');
  return bodyHmacMatches(body, given, secrets);
}
