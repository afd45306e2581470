/**
 * A receiver of outbound webhooks for tests: a real node:http server on 127.0.0.1 that checks
 * each request with the `standard-webhooks` verifier, records it with the time it arrived (the
 * fake's own clock), and answers what the test says.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyStandardWebhook } from '@webhook-gateway/auth-standard-webhooks';

/** One request as the receiver saw it. */
interface Received {
  /** Date.now() when the request arrived. */
  at: number;
  path: string;
  /** `webhook-id`. */
  id: string;
  body: string;
  /** The body parsed. */
  json: { type: string; data: Record<string, unknown> };
  /** Whether the verifier accepted its signature with the receiver's secret. */
  verified: boolean;
  /** What the receiver answered. */
  status: number;
}

interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Answers after this long (a slow receiver). */
  delayMs?: number;
}

export type ReceiverHandler = (request: Omit<Received, 'status'>, index: number) => ReceiverAnswer;

export interface TestReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  received: Received[];
  /** The requests answered 2xx, once per `webhook-id` and how many more times (duplicates). */
  accepted(): { unique: Map<string, Received>; duplicates: number };
  answer(handler: ReceiverHandler): void;
  close(): Promise<void>;
}

/** Starts a receiver verifying with `secret`; it answers 200 until told otherwise. */
export async function startReceiver(
  secret: string,
  handler: ReceiverHandler = () => ({ status: 200 }),
): Promise<TestReceiver> {
  let current = handler;
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const header = (name: string) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const check = verifyStandardWebhook(
        {
          id: header('webhook-id'),
          timestamp: header('webhook-timestamp'),
          signature: header('webhook-signature') ?? '',
          body: raw,
        },
        [secret],
        Date.now(),
        300,
      );
      const request = {
        at,
        path: req.url ?? '',
        id: header('webhook-id') ?? '',
        body: raw.toString('utf8'),
        json: JSON.parse(raw.toString('utf8')) as Received['json'],
        verified: check.ok,
      };
      const answer = current(request, received.length);
      received.push({ ...request, status: answer.status });
      const send = () => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end();
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    accepted() {
      const unique = new Map<string, Received>();
      let duplicates = 0;
      for (const request of received) {
        if (request.status < 200 || request.status >= 300) continue;
        if (unique.has(request.id)) duplicates++;
        else unique.set(request.id, request);
      }
      return { unique, duplicates };
    },
    answer(next) {
      current = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
