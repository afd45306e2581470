/**
 * A stand-in OTLP/HTTP collector for the benchmark's traced gateway: takes every
 * `POST /v1/traces` and answers 200 with an empty protobuf response, counting exports and bytes
 * (decoding them is the collector's cost, not the gateway's).
 */
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.mjs';

/** @returns {Promise<{ endpoint: string, exports: () => number, bytes: () => number, close: () => Promise<void> }>} */
export async function startOtlpSink() {
  let exports = 0;
  let bytes = 0;
  const server = http.createServer((req, res) => {
    req.on('data', (/** @type {Buffer} */ chunk) => (bytes += chunk.length));
    req.on('end', () => {
      if (req.url === '/v1/traces') exports++;
      res.writeHead(req.url === '/v1/traces' ? 200 : 404, {
        'Content-Type': 'application/x-protobuf',
      });
      res.end();
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    exports: () => exports,
    bytes: () => bytes,
    close,
  };
}
