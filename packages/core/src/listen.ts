/** Binding a listener, with bind failures as sentences that name the setting to change. */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StartupError } from './errors.js';

/** Where a listener binds, and how people name it and its keys. */
export interface ListenerAddress {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** What the listener is, before "port" in messages: '' for the webhook port, 'admin '. */
  label: string;
  /** The config block holding its `host` and `port` (`platforms.webhook.extra.admin`). */
  keys: string;
}

/** Listens on the address; resolves with the bound port, or rejects with a readable error. */
export async function listenOn(server: http.Server, address: ListenerAddress): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(bindError(error, address));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(address.port, address.host);
  });
  return (server.address() as AddressInfo).port;
}

function bindError(error: NodeJS.ErrnoException, { host, port, label, keys }: ListenerAddress) {
  switch (error.code) {
    case 'EADDRINUSE':
      return new StartupError(`${label}port ${port} is in use; set ${keys}.port`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(`cannot bind the ${label}listener to ${host}; set ${keys}.host`);
    case 'EACCES':
      return new StartupError(`no permission to bind ${label}port ${port}; set ${keys}.port`);
    default:
      return error;
  }
}
