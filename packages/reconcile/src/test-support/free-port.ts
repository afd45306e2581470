/** A port free on 127.0.0.1 right now (the gateway's URL must be known before its config). */
import net from 'node:net';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port was assigned');
  return address.port;
}
