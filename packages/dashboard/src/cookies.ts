/** The session cookie: read from a `Cookie` header, written as an HttpOnly SameSite=Strict cookie. */

/** Named for the product, so it is recognisable in a browser's cookie list. */
export const SESSION_COOKIE = 'wg_admin_session';

/** Only the dashboard's pages need the session; /metrics takes the bearer token. */
const COOKIE_PATH = '/dashboard';

/** The value of one cookie of a `Cookie` header (undefined when absent). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * The `Set-Cookie` value of a new session. Not `Secure`: the admin listener speaks plain HTTP
 * (put a TLS proxy in front to reach it from elsewhere).
 */
export function sessionCookie(value: string, maxAgeS: number): string {
  return `${SESSION_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${Math.floor(maxAgeS)}; HttpOnly; SameSite=Strict`;
}

/** The `Set-Cookie` value that ends the session in this browser. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=${COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Strict`;
}
