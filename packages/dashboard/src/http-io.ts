/** Reading small form bodies and writing answers with the admin listener's security headers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SafeHtml } from './html.js';

/** A login or replay form is a few hundred bytes; anything bigger is not one of ours. */
export const MAX_FORM_BYTES = 16_384;

export class FormTooLargeError extends Error {
  constructor() {
    super(`form body larger than ${MAX_FORM_BYTES} bytes`);
  }
}

/** Reads an `application/x-www-form-urlencoded` body, refusing it past `MAX_FORM_BYTES`. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_FORM_BYTES) throw new FormTooLargeError();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new FormTooLargeError();
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

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

function secure(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Not no-referrer: with it Chromium sends `Origin: null` on same-origin posts, defeating the check.
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
}

/** An HTML page or fragment. */
export function sendHtml(res: ServerResponse, status: number, body: SafeHtml): void {
  secure(res);
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(body.value);
}

/** Plain text (errors, /metrics). */
export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  secure(res);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

/** A static asset (the stylesheet, the script). */
export function sendAsset(res: ServerResponse, contentType: string, body: string): void {
  secure(res);
  res.setHeader('Cache-Control', 'no-cache');
  res.writeHead(200, { 'Content-Type': contentType });
  res.end(body);
}

/** 303: after a form post, the browser GETs `location`. */
export function redirect(res: ServerResponse, location: string, cookie?: string): void {
  secure(res);
  if (cookie !== undefined) res.setHeader('Set-Cookie', cookie);
  res.writeHead(303, { Location: location });
  res.end();
}
