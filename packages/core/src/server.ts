/** The HTTP server in front of the receiver: timeouts, and bind errors as people read them. */
import http from 'node:http';
import type Koa from 'koa';
import type { WebhookSettings } from './config/schema.js';
import { listenOn } from './listen.js';

export function createServer(app: Koa): http.Server {
  const handle = app.callback();
  // Check for timed-out requests every second (Node's default is 30 s), so a slow client is
  // dropped close to request_timeout_s.
  return http.createServer(
    { connectionsCheckingInterval: 1_000 },
    (req, res) => void handle(req, res),
  );
}

/** Listens on the settings' host and port; resolves with the bound port. */
export async function listen(server: http.Server, settings: WebhookSettings): Promise<number> {
  const requestTimeoutMs = settings.request_timeout_s * 1000;
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(requestTimeoutMs, 20_000);
  server.keepAliveTimeout = 5_000;
  return listenOn(server, {
    host: settings.host,
    port: settings.port,
    label: '',
    keys: 'platforms.webhook.extra',
  });
}

/** Stops accepting connections; resolves once the server has closed. */
export function closeServer(server: http.Server): Promise<void> {
  const closed = server.listening
    ? new Promise<void>((resolve) => server.close(() => resolve()))
    : Promise.resolve();
  server.closeIdleConnections();
  return closed;
}
