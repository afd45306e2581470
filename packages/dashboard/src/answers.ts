/** The shapes of the admin listener's answers: pages, plain text, assets, redirects. */
import type { Context } from 'koa';
import type { SafeHtml } from './html.js';

/** An HTML page or fragment. */
export function sendHtml(ctx: Context, status: number, body: SafeHtml): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body.value;
}

/** Plain text (errors, /metrics). */
export function sendText(
  ctx: Context,
  status: number,
  text: string,
  contentType = 'text/plain; charset=utf-8',
): void {
  ctx.status = status;
  ctx.body = text;
  ctx.set('Content-Type', contentType);
}

/** 404 in plain text, saying what is missing. */
export function notFound(ctx: Context, what = 'Not found'): void {
  sendText(ctx, 404, `${what}\n`);
}

/** A static asset (the stylesheet, the script): it holds no data, so it may be cached. */
export function sendAsset(ctx: Context, contentType: string, body: string): void {
  ctx.set('Cache-Control', 'no-cache');
  sendText(ctx, 200, body, contentType);
}

/** 303: after a form post, the browser GETs `location`. */
export function redirect(ctx: Context, location: string): void {
  ctx.status = 303;
  ctx.redirect(location);
}
