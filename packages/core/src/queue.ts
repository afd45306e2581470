/** How accepted deliveries reach the workers: the embedded pool, or a store's shared queue. */
import type { GatewayConfig } from './config/schema.js';
import type { DeliveryRecord, NotRunStatus } from './delivery.js';
import type { Logger } from './logger.js';
import type { OutboundPlan } from './outbound-plan.js';

export interface DeliveryQueue {
  /** Starts taking work (recovering what a crash left behind). */
  start(): Promise<void>;
  /** Hands over a delivery the receiver just journaled. */
  enqueue(record: DeliveryRecord): void | Promise<void>;
  /** Stops taking work; waits up to `timeoutMs` for running attempts. */
  stop(timeoutMs: number): Promise<void>;
  readonly queuedCount: number;
  readonly runningCount: number;
  /** A pause was lifted: look again at what waited (`Store.pauses`). */
  resumed?(): void;
}

/** How one attempt ended, as far as a queue needs to know to schedule what comes next. */
export type AttemptOutcome =
  | { status: 'delivered' | 'silent' | 'failed' | 'missing' | NotRunStatus }
  /** Queued again in the journal for `nextAttemptAt`. */
  | { status: 'retry'; nextAttemptAt: number }
  /** Cut short because the queue aborted it (a stop): left `running`, for the next start. */
  | { status: 'interrupted' };

/**
 * Makes one attempt at journaled delivery `id` and records its outcome in the journal. It is the
 * only thing a queue knows of execution; aborting `signal` interrupts the attempt.
 */
export type Attempt = (id: string, signal: AbortSignal) => Promise<AttemptOutcome>;

/** The limits a queue schedules by, read again for each decision (a reload changes them). */
export interface QueueLimits {
  /** Attempts under way at once, all routes. */
  concurrency: number;
  /** Per-route limits of the routes that have one. */
  routeConcurrency: Readonly<Record<string, number | undefined>>;
  /** The base of a retry's backoff. */
  retryBackoffMs: number;
}

/** Limits already worked out, per config object: a reload brings a new one. */
const limitsByConfig = new WeakMap<GatewayConfig, QueueLimits>();

/**
 * The limits of a config's webhook settings. Queues ask on every scheduling pass, so they are
 * worked out once per config, not once per pass.
 */
export function queueLimits(config: GatewayConfig): QueueLimits {
  const known = limitsByConfig.get(config);
  if (known) return known;
  const settings = config.platforms.webhook.extra;
  const routeConcurrency: Record<string, number | undefined> = {};
  for (const [name, route] of Object.entries(settings.routes)) {
    routeConcurrency[name] = route.concurrency;
  }
  const limits = Object.freeze({
    concurrency: settings.concurrency,
    routeConcurrency: Object.freeze(routeConcurrency),
    retryBackoffMs: settings.retry_backoff_ms,
  });
  limitsByConfig.set(config, limits);
  return limits;
}

/** What a store needs to run its own shared queue (Redis/BullMQ). */
export interface QueueContext {
  attempt: Attempt;
  limits: () => QueueLimits;
  /**
   * Who hears about a route's status changes under the live config, for a change the queue makes
   * itself (a delivery whose worker died in its last attempt ends `failed`: event `dead`).
   */
  outbound?: (route: string) => OutboundPlan | undefined;
  /**
   * True while new attempts of `route` are paused (`Store.pauses`, as this process last read
   * them): its deliveries wait, queued, and running ones finish.
   */
  paused?: (route: string) => boolean;
  /** `receiver` only enqueues; `worker` only runs; `all` does both. */
  role: GatewayRole;
  log: Logger;
}

export type GatewayRole = 'all' | 'receiver' | 'worker';
