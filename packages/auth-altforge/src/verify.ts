/** The altforge token: the shared secret sent as is, compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  // Hashing first gives equal-length inputs, so the comparison leaks neither content nor length.
  return createHash('sha256').update(value, 'utf8').digest();
}

/** True when `token` equals one of `secrets`; every secret is compared, in constant time. */
export function verifyAltforgeToken(token: string, secrets: readonly string[]): boolean {
  const given = digest(token);
  let valid = false;
  for (const secret of secrets) {
    if (timingSafeEqual(digest(secret), given)) valid = true;
  }
  return valid;
}
