/**
 * Load generation with autocannon: every request a new delivery id, PR numbers cycling through a
 * pool of pre-signed bodies (signing each request would make the load generator, which shares
 * the two cores with the server, the bottleneck), latencies kept at full precision (autocannon's
 * own histogram rounds to whole milliseconds), and only 2xx answers counted as served.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { forgeHeaders, payloadFactory } from './payload.mjs';

const CHILD = fileURLToPath(new URL('./load-child.mjs', import.meta.url));
const makeBody = payloadFactory();
/** Distinct PR numbers per run: a number comes back only after this many requests. */
export const BODY_POOL = 4096;
let runCounter = 0;

/**
 * Signed bodies for PR numbers `first` … `first + BODY_POOL - 1`.
 * @param {number} first
 */
function bodyPool(first) {
  return Array.from({ length: BODY_POOL }, (_, i) => {
    const body = makeBody(first + i);
    return { body, headers: forgeHeaders(body, '') };
  });
}

/**
 * @typedef {object} LoadOptions
 * @property {string} url full URL of the webhook endpoint
 * @property {number} connections
 * @property {number} [durationS] run for this long …
 * @property {number} [amount] … or send exactly this many requests
 * @property {number} [overallRate] requests per second across all connections (fixed rate)
 * @property {number} [firstNumber] PR numbers start here
 */

/**
 * @typedef {object} LoadResult
 * @property {number} requestsPerSecond 2xx answers per second over the run
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} ok 2xx answers
 * @property {number} non2xx
 * @property {number} errors connection errors and timeouts
 * @property {number} durationS
 */

/** @param {number[]} sorted @param {number} q */
function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return /** @type {number} */ (sorted[index]);
}

/**
 * Runs one load in a fresh child process (`load-child.mjs`). In a long-lived runner, autocannon
 * slowed down from one run to the next (once-a-second stalls of ~10 ms by the third run, against
 * any server): a new process per run keeps the load generator's hiccups out of the figures.
 * @param {LoadOptions} options
 * @returns {Promise<LoadResult>}
 */
export async function runLoad(options) {
  const child = spawn(process.execPath, [CHILD, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  return /** @type {LoadResult} */ (JSON.parse(stdout));
}

/**
 * Generates one load in this process (what `load-child.mjs` runs).
 * @param {LoadOptions} options
 * @returns {Promise<LoadResult>}
 */
export async function generateLoad(options) {
  if (options.overallRate !== undefined) return generatePacedLoad(options);
  const run = ++runCounter;
  let sequence = 0;
  const pool = bodyPool(options.firstNumber ?? 1);
  const target = new URL(options.url);
  /** @type {number[]} */
  const latencies = [];
  const instance = autocannon({
    url: target.origin,
    connections: options.connections,
    pipelining: 1,
    timeout: 30,
    ...(options.amount !== undefined
      ? { amount: options.amount }
      : { duration: options.durationS ?? 10 }),
    requests: [
      {
        method: 'POST',
        path: target.pathname,
        setupRequest: (/** @type {Record<string, unknown>} */ request) => {
          const n = sequence++;
          const { body, headers } =
            /** @type {{ body: string, headers: Record<string, string> }} */ (pool[n % BODY_POOL]);
          const deliveryId = `bench-${process.pid}-${run}-${n}`;
          return { ...request, body, headers: { ...headers, 'x-github-delivery': deliveryId } };
        },
      },
    ],
  });
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  const durationS = result.duration;
  return {
    requestsPerSecond: latencies.length / durationS,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    ok: latencies.length,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    durationS,
  };
}

/**
 * A fixed rate, paced: request i is due at start + i / rate and goes out on the first free
 * keep-alive connection; its latency counts from when it was due, so a server that falls behind
 * pays for the queue it causes (as wrk2 measures). autocannon's own `overallRate` is a quota per
 * second: every connection sends back to back until the second's share is used up, so "1,000
 * requests/s" became a saturating burst at the top of each second.
 * @param {LoadOptions} options
 * @returns {Promise<LoadResult>}
 */
async function generatePacedLoad(options) {
  const rate = /** @type {number} */ (options.overallRate);
  const pool = bodyPool(options.firstNumber ?? 1);
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const total = options.amount ?? Math.round((options.durationS ?? 10) * rate);
  /** @type {number[]} */
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  /** @type {Promise<void>[]} */
  const inFlight = [];
  const start = performance.now();

  /** @param {number} n @param {number} due */
  const send = (n, due) =>
    new Promise((resolve) => {
      const { body, headers } = /** @type {{ body: string, headers: Record<string, string> }} */ (
        pool[n % BODY_POOL]
      );
      const request = http.request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            ...headers,
            'content-length': Buffer.byteLength(body),
            'x-github-delivery': `bench-${process.pid}-paced-${n}`,
          },
        },
        (response) => {
          response.resume();
          response.once('end', () => {
            const status = response.statusCode ?? 0;
            if (status >= 200 && status < 300) latencies.push(performance.now() - due);
            else non2xx++;
            resolve();
          });
        },
      );
      request.once('error', () => {
        errors++;
        resolve();
      });
      request.end(body);
    });

  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / rate <= now) {
        inFlight.push(send(sent, start + (sent * 1000) / rate));
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve(undefined);
    };
    tick();
  });
  await Promise.all(inFlight);
  const durationS = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / durationS,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    ok: latencies.length,
    non2xx,
    errors,
    durationS,
  };
}
