import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyTooLargeError, readRawBody } from './body.js';

const LIMIT = 1024;
let server: http.Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A real server on loopback that reads each request with `readRawBody` and reports the result. */
async function serve(): Promise<{ port: number; results: Promise<Buffer | Error>[] }> {
  const results: Promise<Buffer | Error>[] = [];
  server = http.createServer((req, res) => {
    const result = readRawBody(req, LIMIT).catch((error: unknown) => error as Error);
    results.push(result);
    void result.then(() => res.writeHead(204, { connection: 'close' }).end());
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, results };
}

/** Sends `parts` as a chunked body, one write each, and waits for the answer. */
function sendChunked(port: number, parts: string[], headers: http.OutgoingHttpHeaders = {}) {
  return new Promise<void>((resolve) => {
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', headers }, (res) => {
      res.resume().on('end', resolve);
    });
    req.on('error', () => resolve());
    for (const part of parts) req.write(part);
    req.end();
  });
}

describe('readRawBody', () => {
  it('returns every byte of a body that arrives in several chunks', async () => {
    const { port, results } = await serve();
    await sendChunked(port, ['{"a":', '"é",', '"b":2}']);
    const body = await results[0];
    expect(Buffer.isBuffer(body) && body.toString('utf8')).toBe('{"a":"é","b":2}');
  });

  it('refuses a chunked body once it grows past the limit', async () => {
    const { port, results } = await serve();
    await sendChunked(port, ['x'.repeat(LIMIT), 'y']);
    expect(await results[0]).toBeInstanceOf(BodyTooLargeError);
  });

  it('refuses a Content-Length over the limit without reading', async () => {
    const { port, results } = await serve();
    await sendChunked(port, [], { 'content-length': String(LIMIT + 1) });
    expect(await results[0]).toBeInstanceOf(BodyTooLargeError);
  });

  it('accepts a body of exactly the limit', async () => {
    const { port, results } = await serve();
    await sendChunked(port, ['z'.repeat(LIMIT)], { 'content-length': String(LIMIT) });
    const body = await results[0];
    expect(Buffer.isBuffer(body) && body.length).toBe(LIMIT);
  });
});
