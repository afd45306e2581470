#!/usr/bin/env node
/**
 * The framework's own cost: Koa and @koa/router, as the gateway's receiver uses them, doing only
 * the ceiling's work: read the body under a limit, verify the HMAC in constant time, parse the
 * JSON, answer 202. Nothing of the gateway's own pipeline.
 * `KOA_VARIANT` changes one thing, to find what that cost is made of (issue 20, `bench/ab.mjs`):
 *
 * - `reference` (the default, the bench's Koa row): the router, `for await` over the request,
 *   `ctx.body = object`
 * - `raw-body`: the body read with `raw-body` (as the gateway reads it)
 * - `data-events`: the body collected from `data`/`end` events
 * - `no-router`: one middleware matching the path itself
 * - `string-body`: the answer serialised here, `ctx.body` a string with its type set
 * - `gateway-shape`: as the gateway's receiver: an error-wrapping middleware, the router,
 *   `allowedMethods`, `raw-body`
 * - `gateway-routes`: `gateway-shape` with the receiver's other routes (`GET /health`, and
 *   `ALL /webhooks/:route` after the POST, which a POST matches too)
 * - `gateway-routes-lean`: `gateway-routes` without `allowedMethods`, the `ALL` route in a second
 *   router after the first, which only requests the first did not answer reach
 * - `gateway-routes-register`: `gateway-routes` without `allowedMethods`, the `ALL` route
 *   registered (`router.register`, private in @koa/router's types) for every method but POST
 * Prints `Listening on 127.0.0.1:<port>` when ready.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import { BODY_LIMIT as LIMIT, readWithRawBody, verifiedBody } from '../lib/koa-receive.mjs';

// Koa and the router as core depends on them (the versions the gateway runs).
const requireFromCore = createRequire(new URL('../../packages/core/package.json', import.meta.url));
const Koa = requireFromCore('koa');
const Router = requireFromCore('@koa/router');

const secret = process.env.BENCH_SECRET ?? '';
const variant = process.env.KOA_VARIANT ?? 'reference';
const ACCEPTED = JSON.stringify({ status: 'accepted' });

/** @param {import('node:http').IncomingMessage} req @returns {Promise<Buffer | undefined>} */
async function forAwait(req) {
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > LIMIT) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** @param {import('node:http').IncomingMessage} req @returns {Promise<Buffer | undefined>} */
function dataEvents(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    req.on('data', (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size > LIMIT) resolve(undefined);
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const GATEWAY_VARIANTS = [
  'gateway-shape',
  'gateway-routes',
  'gateway-routes-lean',
  'gateway-routes-register',
];
const readers = {
  'raw-body': readWithRawBody,
  'data-events': dataEvents,
  ...Object.fromEntries(GATEWAY_VARIANTS.map((name) => [name, readWithRawBody])),
};
const readBody = readers[/** @type {keyof typeof readers} */ (variant)] ?? forAwait;

/** @param {any} ctx */
async function receive(ctx) {
  const body = await verifiedBody(ctx, readBody, secret);
  if (!body) return;
  try {
    JSON.parse(body.toString('utf8'));
  } catch {
    ctx.status = 400;
    ctx.body = { error: 'Invalid JSON' };
    return;
  }
  ctx.status = 202;
  if (variant === 'string-body') {
    ctx.type = 'application/json';
    ctx.body = ACCEPTED;
  } else ctx.body = { status: 'accepted' };
}

const app = new Koa();
if (variant === 'no-router') {
  app.use(async (/** @type {any} */ ctx) => {
    if (ctx.method === 'POST' && ctx.path.startsWith('/webhooks/')) await receive(ctx);
  });
} else {
  const router = new Router();
  const gatewayShaped = GATEWAY_VARIANTS.includes(variant);
  if (gatewayShaped) {
    app.use(async (/** @type {any} */ ctx, /** @type {() => Promise<void>} */ next) => {
      try {
        await next();
      } catch {
        ctx.status = 500;
        ctx.body = { error: 'Internal error' };
      }
    });
  }
  /** @param {any} ctx */
  const methodNotAllowed = (ctx) => {
    ctx.set('Allow', 'POST');
    ctx.status = 405;
    ctx.body = { error: 'Method not allowed' };
  };
  if (variant !== 'reference' && variant.startsWith('gateway-routes')) {
    router.get('/health', (/** @type {any} */ ctx) => {
      ctx.body = { status: 'ok' };
    });
  }
  router.post('/webhooks/:route', receive);
  if (variant === 'gateway-routes') router.all('/webhooks/:route', methodNotAllowed);
  if (variant === 'gateway-routes-register') {
    const others = http.METHODS.filter((method) => method !== 'POST');
    router.register('/webhooks/:route', others, [methodNotAllowed]);
  }
  app.use(router.routes());
  if (variant === 'gateway-routes-lean') {
    app.use(new Router().all('/webhooks/:route', methodNotAllowed).routes());
  }
  if (variant === 'gateway-shape' || variant === 'gateway-routes') app.use(router.allowedMethods());
}

const server = http.createServer(app.callback());
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`Listening on 127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
