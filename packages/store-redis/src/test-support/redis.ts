/**
 * The Redis that tests run against, decided in one place (unit tests here and the e2e suite use
 * it): the server on 127.0.0.1:6379 if it answers PING; else a `redis-server` started on a free
 * loopback port for this test file (no persistence) and stopped after; else none, and the tests
 * are skipped with a message, except in CI (`CI` set), where that is an error.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';

const HOST = '127.0.0.1';
/** Where the shared test Redis is looked for (`WG_TEST_REDIS_PORT` to use another one). */
const DEFAULT_PORT = Number(process.env.WG_TEST_REDIS_PORT ?? 6379);

export interface TestRedis {
  host: string;
  port: number;
  /** `redis://127.0.0.1:<port>/<db>` with the given query parameters. */
  url(params?: Record<string, string | number>, db?: number): string;
  /** Stops the server when this helper started it. */
  stop(): Promise<void>;
}

/** True when a Redis on `port` answers PING within `timeoutMs`. */
function pingRedis(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port });
    let answer = '';
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk;
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function hasRedisServerBinary(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

async function startRedisServer(): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let tries = 0; tries < 100; tries++) {
    if (await pingRedis(port, 200)) return { port, child };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not answer on ${HOST}:${port}`);
}

function testRedis(port: number, child?: ChildProcess): TestRedis {
  return {
    host: HOST,
    port,
    url(params = {}, db = 0) {
      const query = new URLSearchParams(
        Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]),
      ).toString();
      return `redis://${HOST}:${port}/${db}${query ? `?${query}` : ''}`;
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The Redis to test against, or undefined when there is none and tests should be skipped (never
 * in CI: there it throws). Call once per test file; `stop()` it in `afterAll`.
 */
export async function findTestRedis(): Promise<TestRedis | undefined> {
  if (await pingRedis(DEFAULT_PORT)) return testRedis(DEFAULT_PORT);
  if (hasRedisServerBinary()) {
    const started = await startRedisServer();
    return testRedis(started.port, started.child);
  }
  const message = `no Redis answers on ${HOST}:${DEFAULT_PORT} and there is no redis-server binary to start one`;
  if (process.env.CI) throw new Error(`${message}; CI needs Redis for these tests`);
  process.stderr.write(`[redis tests skipped] ${message}; install Redis to run them\n`);
  return undefined;
}

/** A key prefix no other test run uses: `wg-test-<pid>-<random>`. */
export function uniquePrefix(): string {
  return `wg-test-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Deletes every key under `prefix` (the test's own keys only). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await client.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
