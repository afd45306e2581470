/** The Bitbucket signature: `X-Hub-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body>`. */
import { createHmac } from 'node:crypto';
import { bodyHmacMatches } from '@webhook-gateway/core';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;

/** Signs bytes the way Bitbucket Cloud and Data Center do. */
export function signBitbucketBody(body: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * True when `signature` is `sha256=` and the HMAC of `body` under one of `secrets`, each compared
 * in constant time. Another algorithm (`sha1=`) or a malformed value is refused, never thrown on.
 */
export function verifyBitbucketSignature(
  body: Buffer,
  signature: string,
  secrets: readonly string[],
): boolean {
  const hex = SIGNATURE.exec(signature)?.[1];
  if (hex === undefined) return false;
  const given = Buffer.from(hex, 'hex');
  return bodyHmacMatches(body, given, secrets);
}
