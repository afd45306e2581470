/**
 * A fake of an outside HTTP service: a real node:http (or node:https) server on 127.0.0.1 that
 * records every request and answers with what the test's handler says.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { loopbackCertificate } from './loopback-certificate.js';

/** A request as the fake received it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON when it is JSON. */
  json: unknown;
}

/** What the fake answers. */
export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Sent as JSON; a string is sent as it is. */
  body?: unknown;
  /** Answers only after this long (a slow or hung service). */
  delayMs?: number;
}

export type FakeHandler = (request: ReceivedRequest, index: number) => FakeAnswer;

export interface FakeService {
  /** `http://127.0.0.1:<port>` (`https://` over TLS): the `api_base` to configure. */
  url: string;
  requests: ReceivedRequest[];
  /** Replaces the handler for the next requests. */
  answer(handler: FakeHandler): void;
  close(): Promise<void>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export interface FakeHttpsService extends FakeService {
  /** Its self-signed certificate for 127.0.0.1 (PEM): what the client under test must trust. */
  certFile: string;
}

/** The request listener that records each request and answers with the current handler. */
function recordingListener(
  requests: ReceivedRequest[],
  handler: () => FakeHandler,
): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        json: parseJson(body),
      };
      requests.push(received);
      const answer = handler()(received, requests.length - 1);
      const text =
        typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, {
          'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json',
          ...answer.headers,
        });
        res.end(text);
      };
      if (answer.delayMs === undefined) send();
      else setTimeout(send, answer.delayMs).unref();
    });
  };
}

/** Serves the server `createServer` makes on a free loopback port, answering with `handler`. */
async function serve(
  scheme: 'http' | 'https',
  handler: FakeHandler,
  createServer: (listener: http.RequestListener) => http.Server,
): Promise<FakeService> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const server = createServer(recordingListener(requests, () => current));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    requests,
    answer(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts a fake service on a free loopback port. */
export function startFakeService(handler: FakeHandler): Promise<FakeService> {
  return serve('http', handler, (listener) => http.createServer(listener));
}

/**
 * Starts a fake service over TLS on a free loopback port, with a fresh self-signed certificate
 * for 127.0.0.1 (`loopbackCertificate`); trust it with `trustCertificate(fake.certFile)`.
 *
 * @example
 * const fake = await startFakeHttpsService(() => ({ status: 200, body: { ok: true } }));
 * const untrust = trustCertificate(fake.certFile);
 */
export async function startFakeHttpsService(handler: FakeHandler): Promise<FakeHttpsService> {
  const certificate = loopbackCertificate();
  const service = await serve('https', handler, (listener) =>
    https.createServer({ key: certificate.key, cert: certificate.cert }, listener),
  );
  return {
    ...service,
    certFile: certificate.certFile,
    close: async () => {
      await service.close();
      certificate.remove();
    },
  };
}
