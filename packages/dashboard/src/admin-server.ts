/** The admin listener's socket: bound apart from the public webhook port, closed on stop. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StartupError } from '@webhook-gateway/core';
import type { AdminSettings } from './admin-settings.js';

export interface AdminServer {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** A bind failure as a sentence that says which setting to change. */
function bindError(error: NodeJS.ErrnoException, admin: AdminSettings): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new StartupError(
        `admin port ${admin.port} is in use; set platforms.webhook.extra.admin.port`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(
        `cannot bind the admin listener to ${admin.host}; set platforms.webhook.extra.admin.host`,
      );
    case 'EACCES':
      return new StartupError(
        `no permission to bind admin port ${admin.port}; set platforms.webhook.extra.admin.port`,
      );
    default:
      return error;
  }
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
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(bindError(error, admin));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(admin.port, admin.host);
  });
  const address = server.address() as AddressInfo;
  return {
    host: admin.host,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Live-refreshing browsers keep connections open; they must not hold the stop up.
        server.closeAllConnections();
      }),
  };
}
