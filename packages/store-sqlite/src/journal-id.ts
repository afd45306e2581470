/**
 * Journal ids: UUIDv7 (RFC 9562), time first. New ids sort after older ones, so each insert
 * lands on the right-most page of the primary-key index instead of a random one: a batch of
 * accepts dirties one index page, not one each.
 */
import { randomUUID } from 'node:crypto';

/** A new UUIDv7 string: 48 bits of milliseconds since the epoch, then random bits. */
export function journalId(now: number = Date.now()): string {
  // randomUUID() is a v4 "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx" from a pooled entropy cache;
  // its random and variant bits stay, its first 48 bits become the time and the version 7.
  const random = randomUUID();
  const time = Math.floor(now).toString(16).padStart(12, '0').slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}
