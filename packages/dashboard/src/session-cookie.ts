/**
 * The session cookie: its name, and the `Set-Cookie` values that start and end a session as an
 * HttpOnly SameSite=Strict cookie of the dashboard's paths. Koa's `ctx.cookies` reads it.
 */
import { serialize, type SerializeOptions } from 'cookie';

/** Named for the product, so it is recognisable in a browser's cookie list. */
export const SESSION_COOKIE = 'wg_admin_session';

/**
 * Only the dashboard's pages need the session; /metrics takes the bearer token. Not `Secure`: the
 * admin listener speaks plain HTTP (put a TLS proxy in front to reach it from elsewhere).
 */
const ATTRIBUTES: SerializeOptions = { path: '/dashboard', httpOnly: true, sameSite: 'strict' };

// Written with `cookie`, not `ctx.cookies.set`: that writes only `Expires`, a date by this
// machine's clock, where `Max-Age` counts from when the browser gets the cookie.

/** The `Set-Cookie` value of a new session that lasts `maxAgeS` seconds. */
export function sessionCookie(value: string, maxAgeS: number): string {
  return serialize(SESSION_COOKIE, value, { ...ATTRIBUTES, maxAge: Math.floor(maxAgeS) });
}

/** The `Set-Cookie` value that ends the session in this browser. */
export function clearedSessionCookie(): string {
  return serialize(SESSION_COOKIE, '', { ...ATTRIBUTES, maxAge: 0 });
}
