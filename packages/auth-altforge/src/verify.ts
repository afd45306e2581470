/** The altforge token: the shared secret sent as is, compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { headerBytes } from '@webhook-gateway/core';

function digest(bytes: Buffer): Buffer {
  // Hashing first gives equal-length inputs, so the comparison leaks neither content nor length.
  return createHash('sha256').update(bytes).digest();
}

/**
 * True when the header value `token` carries one of `secrets`; every secret is compared, in
 * constant time: the header's bytes against each secret's UTF-8 bytes, as senders send it.
 */
export function verifyAltforgeToken(token: string, secrets: readonly string[]): boolean {
  const given = digest(headerBytes(token));
  let valid = false;
  for (const secret of secrets) {
    if (timingSafeEqual(digest(Buffer.from(secret, 'utf8')), given)) valid = true;
  }
  return valid;
}
