import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  csrfTokenFor,
  isValidCsrfToken,
  isValidSession,
  issueSession,
  tokensEqual,
} from './auth.js';

const TOKEN = 'admin-token-for-unit-tests';
const HOUR = 3_600_000;

describe('tokensEqual', () => {
  it('accepts the same token and refuses others, including prefixes', () => {
    expect(tokensEqual(TOKEN, TOKEN)).toBe(true);
    expect(tokensEqual(TOKEN.slice(0, -1), TOKEN)).toBe(false);
    expect(tokensEqual(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokensEqual('', TOKEN)).toBe(false);
  });
});

describe('bearerToken', () => {
  it('reads the token of a Bearer header, case-insensitively', () => {
    expect(bearerToken(`Bearer ${TOKEN}`)).toBe(TOKEN);
    expect(bearerToken(`bearer ${TOKEN}`)).toBe(TOKEN);
  });

  it('finds nothing in other schemes or malformed headers', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken(`Basic ${TOKEN}`)).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
  });
});

describe('sessions', () => {
  const now = Date.UTC(2025, 0, 1);

  it('accepts a session it issued until it expires', () => {
    const session = issueSession(TOKEN, now);
    expect(isValidSession(session, TOKEN, now + HOUR, 12 * HOUR)).toBe(true);
    expect(isValidSession(session, TOKEN, now + 12 * HOUR, 12 * HOUR)).toBe(false);
  });

  it('refuses a session signed with another token, so changing the token logs everyone out', () => {
    const session = issueSession('the-previous-admin-token', now);
    expect(isValidSession(session, TOKEN, now, 12 * HOUR)).toBe(false);
  });

  it('refuses a session whose issue time was changed to extend it', () => {
    const session = issueSession(TOKEN, now);
    const forged = session.replace(String(now), String(now + 11 * HOUR));
    expect(isValidSession(forged, TOKEN, now + 13 * HOUR, 12 * HOUR)).toBe(false);
  });

  it('refuses garbage and sessions from the future', () => {
    expect(isValidSession(undefined, TOKEN, now, HOUR)).toBe(false);
    expect(isValidSession('x.y.z', TOKEN, now, HOUR)).toBe(false);
    expect(isValidSession(issueSession(TOKEN, now + HOUR), TOKEN, now, 12 * HOUR)).toBe(false);
  });

  it('issues a different session each time', () => {
    expect(issueSession(TOKEN, now)).not.toBe(issueSession(TOKEN, now));
  });
});

describe('CSRF tokens', () => {
  it('belong to one session', () => {
    const session = issueSession(TOKEN, 1);
    const other = issueSession(TOKEN, 1);
    const csrf = csrfTokenFor(session, TOKEN);
    expect(isValidCsrfToken(csrf, session, TOKEN)).toBe(true);
    expect(isValidCsrfToken(csrf, other, TOKEN)).toBe(false);
    expect(isValidCsrfToken('', session, TOKEN)).toBe(false);
  });
});
