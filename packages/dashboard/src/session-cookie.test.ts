import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, SESSION_COOKIE, sessionCookie } from './session-cookie.js';

describe('session cookies', () => {
  it('are HttpOnly, SameSite=Strict and scoped to the dashboard', () => {
    const cookie = sessionCookie('v', 3600);
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=v; `));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/dashboard');
    expect(cookie).toContain('Max-Age=3600');
    expect(cookie).not.toContain('Secure');
  });

  it('are cleared with an immediate expiry', () => {
    expect(clearedSessionCookie()).toMatch(new RegExp(`^${SESSION_COOKIE}=; .*Max-Age=0`));
  });
});
