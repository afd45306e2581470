import { describe, expect, it } from 'vitest';
import { headerBytes } from '@webhook-gateway/core';
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
    const bytes = (text: string) => Buffer.from(text, 'utf8');
    expect(tokensEqual(bytes(TOKEN), TOKEN)).toBe(true);
    expect(tokensEqual(bytes(TOKEN.slice(0, -1)), TOKEN)).toBe(false);
    expect(tokensEqual(bytes(`${TOKEN}x`), TOKEN)).toBe(false);
    expect(tokensEqual(bytes(''), TOKEN)).toBe(false);
  });

  it('compares a non-ASCII token by its UTF-8 bytes, as a header carries them', () => {
    const token = 'ädmin-tökén';
    const received = Buffer.from(token, 'utf8').toString('latin1'); // how Node decodes the header
    expect(tokensEqual(headerBytes(received), token)).toBe(true);
    expect(tokensEqual(headerBytes(token), token)).toBe(false);
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
