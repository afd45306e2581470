/**
 * The small rules every signature scheme shares, so each fails closed the same way: header text
 * that is printable ASCII only, timestamps that are whole numbers inside a window, digests
 * compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * True when a header value is printable ASCII. Node hands header bytes over as latin-1, so a
 * non-ASCII or non-UTF-8 byte on the wire shows here as a character above 0x7e.
 */
export function isPrintableAscii(value: string): boolean {
  return PRINTABLE_ASCII.test(value);
}

/** Whole seconds or milliseconds as a header or body carries them: digits only, at most 16. */
const WHOLE_NUMBER = /^[0-9]{1,16}$/;

/**
 * True when `timestamp` (digits only, in `unitMs` milliseconds per unit: 1000 for Unix seconds,
 * 1 for milliseconds) is within `toleranceS` seconds of `nowMs`, before or after.
 */
export function isWithinWindow(
  timestamp: string,
  unitMs: number,
  nowMs: number,
  toleranceS: number,
): boolean {
  if (!WHOLE_NUMBER.test(timestamp)) return false;
  const atMs = Number(timestamp) * unitMs;
  return Number.isSafeInteger(atMs) && Math.abs(nowMs - atMs) <= toleranceS * 1000;
}

/**
 * True when two digests are equal, compared in constant time. Digests of different lengths are
 * unequal (their lengths are public: every digest of one algorithm has the same).
 */
export function digestsEqual(expected: Buffer, given: Buffer): boolean {
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * True when `given` is the HMAC-SHA256 of `body` under one of `secrets` (a list while rotating).
 * Every secret is checked, with no early exit on a match, so the time does not tell which one.
 */
export function bodyHmacMatches(body: Buffer, given: Buffer, secrets: readonly string[]): boolean {
  let valid = false;
  for (const secret of secrets) {
    if (digestsEqual(createHmac('sha256', secret).update(body).digest(), given)) valid = true;
  }
  return valid;
}
