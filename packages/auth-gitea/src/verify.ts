/** The Gitea / Forgejo signature: lowercase hex HMAC-SHA256 of the raw body, no prefix. */
import { createHmac } from 'node:crypto';
import { bodyHmacMatches } from '@webhook-gateway/core';

const SIGNATURE = /^[0-9a-f]{64}$/;

/** Signs bytes the way Gitea and Forgejo do. */
export function signGiteaBody(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * True when `signature` is the HMAC of `body` under one of `secrets`, every secret compared in
 * constant time. Anything but 64 lowercase hex digits is refused, never thrown on.
 */
export function verifyGiteaSignature(
  body: Buffer,
  signature: string,
  secrets: readonly string[],
): boolean {
  if (!SIGNATURE.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  return bodyHmacMatches(body, given, secrets);
}
