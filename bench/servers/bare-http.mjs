#!/usr/bin/env node
/**
 * The ceiling: a bare `node:http` receiver that does only what any receiver must — read the body
 * under a limit, verify the HMAC in constant time, parse the JSON — and answers 202.
 * Prints `Listening on 127.0.0.1:<port>` when ready.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const secret = process.env.BENCH_SECRET ?? '';
const LIMIT = 1_048_576;

/** @param {http.ServerResponse} res @param {number} status @param {unknown} body */
function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** @param {Buffer} body @param {string | string[] | undefined} header */
function validSignature(body, header) {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(header.slice(7), 'hex'));
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/webhooks/bench')
    return send(res, 404, { error: 'Unknown route' });
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  req.on('data', (/** @type {Buffer} */ chunk) => {
    size += chunk.length;
    if (size > LIMIT) {
      send(res, 413, { error: 'Payload too large' });
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (!validSignature(body, req.headers['x-hub-signature-256'])) {
      return send(res, 401, { error: 'Invalid signature' });
    }
    try {
      JSON.parse(body.toString('utf8'));
    } catch {
      return send(res, 400, { error: 'Invalid JSON' });
    }
    send(res, 202, { status: 'accepted' });
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`Listening on 127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
