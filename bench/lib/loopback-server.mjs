/** A fake service's HTTP server on a free port of 127.0.0.1, and how to close it at once. */

/**
 * @param {import('node:http').Server} server
 * @returns {Promise<{ port: number, close: () => Promise<void> }>}
 */
export async function listenOnLoopback(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
