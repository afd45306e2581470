/**
 * Load generation with autocannon: every request a new delivery id, PR numbers cycling through a
 * pool of pre-signed bodies (signing each request would make the load generator, which shares
 * the two cores with the server, the bottleneck), latencies kept at full precision (autocannon's
 * own histogram rounds to whole milliseconds), and only 2xx answers counted as served.
 */
import autocannon from 'autocannon';
import { forgeHeaders, payloadFactory } from './payload.mjs';

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
 * @param {LoadOptions} options
 * @returns {Promise<LoadResult>}
 */
export async function runLoad(options) {
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
    ...(options.overallRate !== undefined ? { overallRate: options.overallRate } : {}),
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
