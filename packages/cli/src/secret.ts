/** Secrets generated for subscriptions (and `init`): 32 random bytes as hex. */
import { randomBytes } from 'node:crypto';

/** A new random secret: 64 hex characters (256 bits). */
export function generateSecret(): string {
  return randomBytes(32).toString('hex');
}

/** Secrets shorter than this are accepted with a warning. */
export const SHORT_SECRET_LENGTH = 16;
