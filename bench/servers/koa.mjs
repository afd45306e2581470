#!/usr/bin/env node
/**
 * The framework's own cost: Koa and @koa/router, as the gateway uses them (DESIGN names Koa as
 * the receiver), doing only the ceiling's work: read the body under a limit, verify the HMAC in
 * constant time, parse the JSON, answer 202. Nothing of the gateway's own pipeline.
 * Prints `Listening on 127.0.0.1:<port>` when ready.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';

// Koa and the router as core depends on them (the versions the gateway runs).
const requireFromCore = createRequire(new URL('../../packages/core/package.json', import.meta.url));
const Koa = requireFromCore('koa');
const Router = requireFromCore('@koa/router');

const secret = process.env.BENCH_SECRET ?? '';
const LIMIT = 1_048_576;

/** @param {Buffer} body @param {string} header */
function validSignature(body, header) {
  if (!/^sha256=[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(header.slice(7), 'hex'));
}

const app = new Koa();
const router = new Router();
router.post('/webhooks/:route', async (/** @type {any} */ ctx) => {
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += chunk.length;
    if (size > LIMIT) {
      ctx.status = 413;
      ctx.body = { error: 'Payload too large' };
      return;
    }
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  if (!validSignature(body, ctx.get('x-hub-signature-256'))) {
    ctx.status = 401;
    ctx.body = { error: 'Invalid signature' };
    return;
  }
  try {
    JSON.parse(body.toString('utf8'));
  } catch {
    ctx.status = 400;
    ctx.body = { error: 'Invalid JSON' };
    return;
  }
  ctx.status = 202;
  ctx.body = { status: 'accepted' };
});
app.use(router.routes());

const server = http.createServer(app.callback());
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`Listening on 127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
