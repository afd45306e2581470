import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from './cookies.js';

describe('readCookie', () => {
  it('finds a cookie among others', () => {
    expect(readCookie(`a=1; ${SESSION_COOKIE}=abc.def; b=2`, SESSION_COOKIE)).toBe('abc.def');
  });

  it('does not match a cookie whose name only ends with the name', () => {
    expect(readCookie(`x${SESSION_COOKIE}=evil`, SESSION_COOKIE)).toBeUndefined();
    expect(readCookie(undefined, SESSION_COOKIE)).toBeUndefined();
  });
});

describe('session cookies', () => {
  it('are HttpOnly, SameSite=Strict and scoped to the dashboard', () => {
    const cookie = sessionCookie('v', 3600);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/dashboard');
    expect(cookie).toContain('Max-Age=3600');
  });

  it('are cleared with an immediate expiry', () => {
    expect(clearedSessionCookie()).toMatch(new RegExp(`^${SESSION_COOKIE}=; .*Max-Age=0`));
  });
});
