/**
 * What a Redis store is opened with: the URL (`store.url`) and the tuning knobs of the shared
 * queue. The knobs can also ride on the URL as query parameters, because the config file's
 * `store` block has only `url` for Redis: `redis://host:6379/0?prefix=team-a&lock_duration_ms=10000`.
 */
import { z } from 'zod';

/** Options of `openRedisStore`; every duration in milliseconds. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db][?prefix=…&lock_duration_ms=…]` (or `rediss://`). */
  url: string;
  /** Namespace of every key, BullMQ's included (default `wg`). Wins over the URL's `prefix`. */
  prefix?: string;
  /** How long a worker's claim on a job lasts without renewal (BullMQ `lockDuration`, default 30 s). */
  lockDurationMs?: number;
  /** How often workers look for jobs whose worker died (BullMQ `stalledInterval`, default 30 s). */
  stalledIntervalMs?: number;
  /** How often a worker re-creates jobs for journal rows that lost theirs (default 30 s). */
  sweepIntervalMs?: number;
  /** How long a job waits before trying again when its pull request or route is busy (default 250). */
  busyDelayMs?: number;
  /** Base of BullMQ's own retry backoff, for errors outside an attempt (default 1 s). */
  retryBackoffMs?: number;
  /** Finished BullMQ jobs kept for inspection (the journal keeps the history; default 1000 each). */
  keepCompletedJobs?: number;
  keepFailedJobs?: number;
  /** How long opening waits for Redis to answer (default 5 s). */
  connectTimeoutMs?: number;
}

/** The options with defaults filled in and the store's own parameters taken off the URL. */
export interface ResolvedRedisOptions {
  /** The URL ioredis connects with: the given one without this package's query parameters. */
  connectUrl: string;
  /** The URL as it may be shown: password masked. */
  displayUrl: string;
  prefix: string;
  lockDurationMs: number;
  stalledIntervalMs: number;
  sweepIntervalMs: number;
  busyDelayMs: number;
  retryBackoffMs: number;
  keepCompletedJobs: number;
  keepFailedJobs: number;
  connectTimeoutMs: number;
}

export const DEFAULT_PREFIX = 'wg';

const milliseconds = z.coerce.number().int().positive();
const count = z.coerce.number().int().min(0);

/** The query parameters this package reads off the URL (snake_case, like the config file). */
const urlParamsSchema = z.strictObject({
  prefix: z
    .string()
    .regex(/^[A-Za-z0-9_.{}-]+$/, 'may hold letters, digits, "_", ".", "-", "{" and "}"')
    .optional(),
  lock_duration_ms: milliseconds.optional(),
  stalled_interval_ms: milliseconds.optional(),
  sweep_interval_ms: milliseconds.optional(),
  busy_delay_ms: milliseconds.optional(),
  keep_completed_jobs: count.optional(),
  keep_failed_jobs: count.optional(),
});
const OWN_PARAMS = new Set(Object.keys(urlParamsSchema.shape));

/** Thrown for a URL or option this store cannot use; the message names `store.url`. */
export class RedisOptionsError extends Error {
  override readonly name = 'RedisOptionsError';
}

/**
 * The URL with its password replaced by `****`, safe for logs and errors.
 *
 * @example maskRedisUrl('redis://:hunter2@cache:6379/0') // 'redis://:****@cache:6379/0'
 */
export function maskRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(an unparsable Redis URL)';
  }
  if (parsed.password !== '') parsed.password = '****';
  return parsed.toString();
}

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RedisOptionsError(
      `store.url is not a URL (${maskRedisUrl(url)}); write it as redis://host:6379 or rediss://host:6380`,
    );
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new RedisOptionsError(
      `store.url must start with redis:// or rediss://, not ${parsed.protocol}// (${maskRedisUrl(url)})`,
    );
  }
  if (parsed.searchParams.has('keyPrefix')) {
    throw new RedisOptionsError(
      'store.url sets keyPrefix, which BullMQ cannot work with; use ?prefix=… instead',
    );
  }
  return parsed;
}

/** Fills in defaults and separates this package's URL parameters from the connection's. */
export function resolveRedisOptions(options: RedisStoreOptions): ResolvedRedisOptions {
  const parsed = parseUrl(options.url);
  const own: Record<string, string> = {};
  for (const [name, value] of parsed.searchParams) if (OWN_PARAMS.has(name)) own[name] = value;
  const params = urlParamsSchema.safeParse(own);
  if (!params.success) {
    const problems = params.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new RedisOptionsError(`store.url has a bad parameter: ${problems.join('; ')}`);
  }
  for (const name of OWN_PARAMS) parsed.searchParams.delete(name);
  const connectUrl = parsed.toString();
  const fromUrl = params.data;
  const prefix = options.prefix ?? fromUrl.prefix ?? DEFAULT_PREFIX;
  const lockDurationMs = options.lockDurationMs ?? fromUrl.lock_duration_ms ?? 30_000;
  return {
    connectUrl,
    displayUrl: maskRedisUrl(connectUrl),
    prefix,
    lockDurationMs,
    stalledIntervalMs: options.stalledIntervalMs ?? fromUrl.stalled_interval_ms ?? lockDurationMs,
    sweepIntervalMs: options.sweepIntervalMs ?? fromUrl.sweep_interval_ms ?? 30_000,
    busyDelayMs: options.busyDelayMs ?? fromUrl.busy_delay_ms ?? 250,
    retryBackoffMs: options.retryBackoffMs ?? 1_000,
    keepCompletedJobs: options.keepCompletedJobs ?? fromUrl.keep_completed_jobs ?? 1_000,
    keepFailedJobs: options.keepFailedJobs ?? fromUrl.keep_failed_jobs ?? 1_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
  };
}
