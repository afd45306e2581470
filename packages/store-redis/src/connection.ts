/**
 * Connections to Redis: one for the store's commands (auto-pipelined: the accepts of one tick
 * travel together), and separate ones for BullMQ, whose blocking reads must not hold up commands.
 */
import { Redis } from 'ioredis';
import type { ResolvedRedisOptions } from './options.js';

/** What went wrong reaching Redis, without the URL's password. */
export class RedisConnectError extends Error {
  override readonly name = 'RedisConnectError';
}

/** Resolves once `client` answers PING, or rejects after `timeoutMs` with the last error seen. */
async function waitUntilReady(client: Redis, displayUrl: string, timeoutMs: number): Promise<void> {
  let lastError: Error | undefined;
  const onError = (error: Error) => {
    lastError = error;
  };
  client.on('error', onError);
  let timer: NodeJS.Timeout | undefined;
  const unreachable = (reason: string) =>
    new RedisConnectError(
      `cannot reach Redis at ${displayUrl} (${reason}); check store.url and that Redis is running`,
    );
  try {
    await Promise.race([
      client.ping().catch((error: unknown) => {
        // The connection's own error (ECONNREFUSED, WRONGPASS) says more than "retries exhausted".
        const reason =
          lastError?.message ?? (error instanceof Error ? error.message : String(error));
        throw unreachable(reason);
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const reason = lastError?.message ?? `no answer within ${timeoutMs / 1000} s`;
          reject(unreachable(reason));
        }, timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    client.off('error', onError);
  }
}

/**
 * Opens the store's command connection and waits until Redis answers. Errors after that surface
 * through the commands that fail (and are logged by their callers), so the connection's own
 * error events are not printed: they could repeat the host on every reconnect attempt.
 */
export async function openCommandClient(options: ResolvedRedisOptions): Promise<Redis> {
  const client = new Redis(options.connectUrl, {
    enableAutoPipelining: true,
    maxRetriesPerRequest: 3,
    connectTimeout: options.connectTimeoutMs,
    connectionName: 'webhook-gateway',
  });
  client.on('error', () => undefined);
  try {
    await waitUntilReady(client, options.displayUrl, options.connectTimeoutMs);
  } catch (error) {
    client.disconnect();
    throw error;
  }
  return client;
}

/**
 * A connection for BullMQ (a queue producer or a worker): no auto-pipelining, and commands wait
 * for a reconnect instead of failing, as BullMQ's workers require.
 */
export function bullmqConnection(client: Redis, name: string): Redis {
  const connection = client.duplicate({
    enableAutoPipelining: false,
    maxRetriesPerRequest: null,
    connectionName: `webhook-gateway-${name}`,
  });
  connection.on('error', () => undefined);
  return connection;
}

/** Closes a connection politely, or drops it when Redis does not answer. */
export async function closeConnection(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  try {
    await Promise.race([
      client.quit(),
      new Promise((resolve) => setTimeout(resolve, 1_000).unref()),
    ]);
  } catch {
    // already closing or unreachable: dropping it below is all that is left
  }
  client.disconnect();
}
