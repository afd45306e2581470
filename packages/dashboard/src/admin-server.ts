/** The admin listener's socket: bound apart from the public webhook port, closed on stop. */
import http from 'node:http';
import { listenOn } from '@webhook-gateway/core';
import type { AdminSettings } from './admin-settings.js';

export interface AdminServer {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Listens on `admin.host:admin.port` (port 0 picks a free one) and serves `handle`. */
export async function listenAdmin(
  admin: AdminSettings,
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
): Promise<AdminServer> {
  const server = http.createServer((req, res) => void handle(req, res));
  server.requestTimeout = 30_000;
  server.headersTimeout = 20_000;
  server.keepAliveTimeout = 5_000;
  const port = await listenOn(server, {
    host: admin.host,
    port: admin.port,
    label: 'admin ',
    keys: 'platforms.webhook.extra.admin',
  });
  return {
    host: admin.host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Live-refreshing browsers keep connections open; they must not hold the stop up.
        server.closeAllConnections();
      }),
  };
}
