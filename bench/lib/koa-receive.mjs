/**
 * What the Koa bench receivers share: the body read with `raw-body` (as the gateway reads it)
 * and the receive path's first two answers, 413 and 401.
 */
import { createRequire } from 'node:module';
import { validSignature } from './signature.mjs';

// raw-body as core depends on it (the version the gateway runs).
const requireFromCore = createRequire(new URL('../../packages/core/package.json', import.meta.url));
const getRawBody = requireFromCore('raw-body');

export const BODY_LIMIT = 1_048_576;

/** @param {import('node:http').IncomingMessage} req @returns {Promise<Buffer | undefined>} */
export async function readWithRawBody(req) {
  const declared = req.headers['content-length'];
  const length = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined;
  try {
    return await getRawBody(req, { limit: BODY_LIMIT, length });
  } catch {
    return undefined;
  }
}

/**
 * The body read by `read` when it is within the limit and signed with `secret`; otherwise the
 * 413 or 401 answer is set on `ctx` and the result is undefined.
 * @param {any} ctx
 * @param {(req: import('node:http').IncomingMessage) => Promise<Buffer | undefined>} read
 * @param {string} secret
 */
export async function verifiedBody(ctx, read, secret) {
  const body = await read(ctx.req);
  if (!body) {
    ctx.status = 413;
    ctx.body = { error: 'Payload too large' };
    return undefined;
  }
  if (!validSignature(secret, body, ctx.get('x-hub-signature-256'))) {
    ctx.status = 401;
    ctx.body = { error: 'Invalid signature' };
    return undefined;
  }
  return body;
}
