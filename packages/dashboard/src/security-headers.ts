/** The headers every answer of the admin listener carries, errors and redirects included. */
import type { Middleware } from 'koa';

/**
 * Pages load only their own stylesheet and script, post only to this listener and cannot be
 * framed: an injected tag, if escaping ever failed, could not run or send anything away.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Sets the headers before anything else runs; an answer may loosen `Cache-Control` (assets). */
export const securityHeaders: Middleware = async (ctx, next) => {
  ctx.set({
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    // Not no-referrer: with it Chromium sends `Origin: null` on same-origin posts, defeating the check.
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
  });
  await next();
};
