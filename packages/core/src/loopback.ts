/** Which hosts only this machine can reach: binds, and URLs the gateway may call without TLS. */

/** True for addresses only this machine can reach (a URL's `[::1]` too). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' || bare === '::1' || bare.startsWith('127.') || bare === '::ffff:127.0.0.1'
  );
}
