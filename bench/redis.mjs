#!/usr/bin/env node
/**
 * Accepted deliveries per second on the Redis store, next to the embedded SQLite store, with the
 * built CLI (`packages/cli/dist/bin.js`). Standalone: `node bench/redis.mjs` (bench/run.mjs calls
 * it). Prints `[{ scenario, requestsPerSecond, p50Ms, p99Ms, … }]` as JSON on stdout; progress
 * goes to stderr.
 *
 * Scenarios, each for a fixed duration after a warm-up, signed ~6 KB `pull_request` deliveries
 * with unique delivery ids, only 2xx answers counted:
 *   redis-1-receiver   one `--role receiver` process on Redis
 *   redis-2-receivers  two receivers on one Redis, the load split across both ports
 *   sqlite-embedded    one process on the embedded SQLite store (its worker pool runs the
 *                      dry-run agent in the same process, as the embedded setup does)
 *
 * Redis: 127.0.0.1:6379 if it answers, else a `redis-server` started on a free port for the run.
 * Every key lives under a fresh prefix and is deleted after its scenario.
 *
 * Environment: BENCH_DURATION_S (default 10), BENCH_WARMUP_S (2), BENCH_CONNECTIONS (16),
 * WG_BENCH_CLI (another build of the CLI).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cliPath = process.env.WG_BENCH_CLI ?? path.join(repoRoot, 'packages/cli/dist/bin.js');
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECRET = 'bench-redis-secret-not-for-production';
const PAYLOAD_BYTES = 6 * 1024;
const BODY_POOL = 512;
const HOST = '127.0.0.1';

/** @param {string} message */
function progress(message) {
  process.stderr.write(`[bench:redis] ${message}\n`);
}

// ── Redis ────────────────────────────────────────────────────────────────────────────────────

/** @param {number} port */
function ping(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port });
    const done = (/** @type {boolean} */ ok) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 500);
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** @returns {Promise<{ port: number, stop: () => void }>} */
async function findRedis() {
  if (await ping(6379)) return { port: 6379, stop: () => undefined };
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    throw new Error('no Redis answers on 127.0.0.1:6379 and there is no redis-server to start');
  }
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100 && !(await ping(port)); i++) await sleep(50);
  progress(`started redis-server on ${HOST}:${port}`);
  return { port, stop: () => child.kill('SIGTERM') };
}

/** @param {number} port @param {string} prefix */
async function deleteKeys(port, prefix) {
  const client = new Redis({ host: HOST, port, maxRetriesPerRequest: 1 });
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

// ── Gateways ─────────────────────────────────────────────────────────────────────────────────

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A home with a config for `store`; every route setting that could refuse load is opened up.
 * @param {Record<string, unknown>} store
 */
function makeHome(store) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-bench-redis-'));
  const config = {
    store,
    platforms: {
      webhook: {
        extra: {
          host: HOST,
          port: 0,
          secret: SECRET,
          rate_limit: 100_000_000,
          concurrency: 1,
          routes: { reviews: { events: ['pull_request'] } },
        },
      },
    },
  };
  // JSON is YAML.
  fs.writeFileSync(path.join(home, 'config.yaml'), JSON.stringify(config));
  return home;
}

/**
 * Starts `webhook-gateway gateway` and resolves with its port once it listens.
 * @param {string} home @param {string} role
 */
function startGateway(home, role) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [cliPath, 'gateway', '--home', home, '--role', role, '--log-level', 'warn'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.add(child);
    let output = '';
    const timer = setTimeout(() => reject(new Error(`gateway did not start: ${output}`)), 20_000);
    const onData = (/** @type {Buffer} */ chunk) => {
      output += chunk.toString();
      const match = /Listening on \S+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk.toString()));
    child.once('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code}: ${output}`));
    });
  });
}

/** @param {import('node:child_process').ChildProcess} child */
async function stopGateway(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
  children.delete(child);
}

// ── Load ─────────────────────────────────────────────────────────────────────────────────────

/** Signed ~6 KB pull_request bodies for distinct PR numbers (signing per request would load the client). */
function bodyPool() {
  const filler = 'This change updates the README and the build notes. ';
  return Array.from({ length: BODY_POOL }, (_, i) => {
    const number = i + 1;
    const skeleton = {
      action: 'opened',
      number,
      pull_request: { number, title: `Bench change ${number}`, draft: false, body: '' },
      repository: { full_name: 'octo/bench' },
      sender: { login: 'bench' },
    };
    const room = PAYLOAD_BYTES - JSON.stringify(skeleton).length;
    skeleton.pull_request.body = filler.repeat(Math.ceil(room / filler.length)).slice(0, room);
    const body = JSON.stringify(skeleton);
    const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
    return { body, signature };
  });
}

const pool = bodyPool();
let runCounter = 0;

/**
 * One autocannon run against `port`; resolves with the 2xx latencies and counts.
 * @param {number} port @param {number} connections @param {number} durationS
 */
async function loadOne(port, connections, durationS) {
  const run = `${process.pid}-${++runCounter}-${randomBytes(3).toString('hex')}`;
  let sequence = 0;
  /** @type {number[]} */
  const latencies = [];
  const instance = autocannon({
    url: `http://${HOST}:${port}`,
    connections,
    pipelining: 1,
    timeout: 30,
    duration: durationS,
    requests: [
      {
        method: 'POST',
        path: '/webhooks/reviews',
        setupRequest: (/** @type {Record<string, unknown>} */ request) => {
          const n = sequence++;
          const { body, signature } = /** @type {{ body: string, signature: string }} */ (
            pool[n % BODY_POOL]
          );
          return {
            ...request,
            body,
            headers: {
              'content-type': 'application/json',
              'x-forge-event': 'pull_request',
              'x-forge-signature-256': signature,
              'x-forge-delivery': `bench-${run}-${n}`,
            },
          };
        },
      },
    ],
  });
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
  });
  const result = await instance;
  return {
    latencies,
    durationS: result.duration,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** @param {number[]} sorted @param {number} q */
function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return /** @type {number} */ (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
  );
}

/**
 * Warms up, then loads every port at once with the connections split between them.
 * @param {string} scenario @param {number[]} ports
 */
async function measure(scenario, ports) {
  const share = Math.max(1, Math.floor(CONNECTIONS / ports.length));
  progress(`${scenario}: warm-up ${WARMUP_S} s`);
  await Promise.all(ports.map((port) => loadOne(port, share, WARMUP_S)));
  progress(`${scenario}: ${DURATION_S} s, ${share} connections on each of ${ports.length} port(s)`);
  const runs = await Promise.all(ports.map((port) => loadOne(port, share, DURATION_S)));
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const durationS = Math.max(...runs.map((r) => r.durationS));
  const row = {
    scenario,
    requestsPerSecond: Math.round(latencies.length / durationS),
    p50Ms: Number(quantile(latencies, 0.5).toFixed(2)),
    p99Ms: Number(quantile(latencies, 0.99).toFixed(2)),
    accepted: latencies.length,
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    receivers: ports.length,
    connections: share * ports.length,
    durationS,
  };
  progress(`${scenario}: ${row.requestsPerSecond} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms`);
  return row;
}

// ── Scenarios ────────────────────────────────────────────────────────────────────────────────

/** @param {number} redisPort @param {number} receivers */
async function redisScenario(redisPort, receivers) {
  const prefix = `wg-bench-${process.pid}-${randomBytes(4).toString('hex')}`;
  const home = makeHome({ kind: 'redis', url: `redis://${HOST}:${redisPort}/0?prefix=${prefix}` });
  const started = [];
  try {
    for (let i = 0; i < receivers; i++) started.push(await startGateway(home, 'receiver'));
    const name = receivers === 1 ? 'redis-1-receiver' : `redis-${receivers}-receivers`;
    return await measure(
      name,
      started.map((s) => s.port),
    );
  } finally {
    await Promise.all(started.map((s) => stopGateway(s.child)));
    await deleteKeys(redisPort, prefix);
    fs.rmSync(home, { recursive: true, force: true });
  }
}

async function sqliteScenario() {
  const home = makeHome({ kind: 'sqlite' });
  let started;
  try {
    started = await startGateway(home, 'all');
    return await measure('sqlite-embedded', [started.port]);
  } finally {
    if (started) await stopGateway(started.child);
    fs.rmSync(home, { recursive: true, force: true });
  }
}

async function main() {
  if (!fs.existsSync(cliPath))
    throw new Error(`${cliPath} is missing: build first (npx turbo run build)`);
  const redis = await findRedis();
  const scenarios = [
    ['redis-1-receiver', () => redisScenario(redis.port, 1)],
    ['redis-2-receivers', () => redisScenario(redis.port, 2)],
    ['sqlite-embedded', () => sqliteScenario()],
  ];
  const rows = [];
  let failed = 0;
  try {
    for (const [name, run] of scenarios) {
      try {
        rows.push(await run());
      } catch (error) {
        failed++;
        progress(
          `${name} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        );
      }
    }
  } finally {
    redis.stop();
  }
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  if (failed > 0) process.exitCode = 1;
}

function killChildren() {
  for (const child of children) child.kill('SIGKILL');
}

process.on('SIGINT', () => {
  killChildren();
  process.exit(130);
});

main().catch((error) => {
  killChildren();
  progress(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
