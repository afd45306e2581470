#!/usr/bin/env node
/**
 * `@octokit/webhooks`' Node middleware on `node:http`, as its README sets it up: verifies the
 * signature, parses the payload and emits the event to a no-op handler.
 * Prints `Listening on 127.0.0.1:<port>` when ready.
 */
import http from 'node:http';
import { Webhooks, createNodeMiddleware } from '@octokit/webhooks';

const webhooks = new Webhooks({ secret: process.env.BENCH_SECRET ?? '' });
webhooks.on('pull_request', () => {});
webhooks.onError(() => {});

const middleware = createNodeMiddleware(webhooks, { path: '/webhooks/bench' });
const server = http.createServer((req, res) => {
  void middleware(req, res, () => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"Unknown route"}');
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`Listening on 127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
