/**
 * Who may use the admin listener: the admin token as `Authorization: Bearer …`, or a session
 * cookie the login form issues. The cookie is signed with the token (no server-side state, and
 * changing the token ends every session); the CSRF token of a session is derived the same way.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * True when the bytes `given` are the admin token's UTF-8 bytes; the time taken does not depend
 * on where they differ.
 */
export function tokensEqual(given: Buffer, expected: string): boolean {
  // Hashing first gives equal lengths, so even the length is not revealed by timing.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, if that is what it holds. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer +([^\s]+) *$/i.exec(authorization ?? '');
  return match?.[1];
}

function sign(token: string, purpose: string, message: string): string {
  return createHmac('sha256', token).update(`${purpose}\n${message}`).digest('base64url');
}

function signaturesEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `<issued at ms>.<nonce>.<signature>`: anything else is not a session. */
const sessionSchema = z
  .string()
  .regex(/^(\d{1,16})\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{43})$/)
  .transform((value) => {
    const [issuedAt = '', nonce = '', signature = ''] = value.split('.');
    return { issuedAt: Number(issuedAt), nonce, signature };
  });

/** A new session value for the cookie, valid until `now + ttl` (checked by `isValidSession`). */
export function issueSession(token: string, now: number): string {
  const body = `${now}.${randomBytes(18).toString('base64url')}`;
  return `${body}.${sign(token, 'session', body)}`;
}

/** True for a session this token issued that has not expired. */
export function isValidSession(
  value: string | undefined,
  token: string,
  now: number,
  ttlMs: number,
): boolean {
  const parsed = sessionSchema.safeParse(value);
  if (!parsed.success) return false;
  const { issuedAt, nonce, signature } = parsed.data;
  // A minute of clock skew is tolerated; a session from further in the future is not.
  if (issuedAt > now + 60_000 || now - issuedAt >= ttlMs) return false;
  return signaturesEqual(signature, sign(token, 'session', `${issuedAt}.${nonce}`));
}

/** The CSRF token forms of this session carry. */
export function csrfTokenFor(session: string, token: string): string {
  return sign(token, 'csrf', session);
}

/** True when a form's CSRF token belongs to this session. */
export function isValidCsrfToken(given: string, session: string, token: string): boolean {
  return signaturesEqual(given, csrfTokenFor(session, token));
}
