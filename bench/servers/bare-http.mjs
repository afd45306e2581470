#!/usr/bin/env node
/**
 * The ceiling: a bare `node:http` receiver that does only what any receiver must — read the body
 * under a limit, verify the HMAC in constant time, parse the JSON — and answers 202.
 * Prints `Listening on 127.0.0.1:<port>` when ready.
 */
import http from 'node:http';
import { validSignature } from '../lib/signature.mjs';

const secret = process.env.BENCH_SECRET ?? '';
const LIMIT = 1_048_576;

/** @param {http.ServerResponse} res @param {number} status @param {unknown} body */
function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
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
    if (!validSignature(secret, body, req.headers['x-hub-signature-256'])) {
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
