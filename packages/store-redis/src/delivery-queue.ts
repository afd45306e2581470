/**
 * The shared queue: receivers add a BullMQ job per journaled delivery, workers (role `worker` or
 * `all`) take jobs and make the attempt the gateway hands in (`context.attempt`) for each. The
 * journal stays the truth; a job is a ticket. The package README explains the design (ordering, route limits, retries, recovery).
 */
import { randomUUID } from 'node:crypto';
import {
  errorMessage,
  isFinishedStatus,
  type DeliveryRecord,
  type Logger,
} from '@webhook-gateway/core';
import type { AttemptOutcome, DeliveryQueue, QueueContext } from '@webhook-gateway/core/store-kit';
import { DelayedError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmqConnection, closeConnection } from './connection.js';
import { jobDataSchema, jobIdOf, type DeliveryJobData } from './jobs.js';
import { QUEUE_NAME } from './keys.js';
import { addMissingJobs } from './reconcile.js';
import type { QueueJournal } from './queue-journal.js';
import { LOST_LAST_ATTEMPT_ERROR } from './row-changes.js';
import { claimAttemptSlot, releaseAttemptSlot, renewAttemptSlot } from './attempt-slot.js';

/** What a running attempt holds: its route lease (when the route has a limit). */
interface AttemptSlot {
  id: string;
  route: string;
  leaseMs: number;
  /** `routes.<name>.concurrency`, 0 for none. */
  routeLimit: number;
}

/** A job waiting for a busy pull request never sleeps longer than this before looking again. */
const MAX_BLOCKED_WAIT_MS = 30_000;
/**
 * How long a job of a paused route sleeps before looking again; a resume wakes the delayed jobs
 * at once (`resumed`), so this only bounds the cost of a long pause.
 */
const PAUSED_WAIT_MS = 30_000;
/** How stale `queuedCount` may be (it is read from Redis, not counted here). */
const QUEUED_COUNT_TTL_MS = 1_000;
/** A job whose worker keeps dying is given up by BullMQ after this many stalls (the sweep re-adds it). */
const MAX_STALLED_COUNT = 10;

export class RedisDeliveryQueue implements DeliveryQueue {
  private worker: Worker<DeliveryJobData> | undefined;
  private workerConnection: Redis | undefined;
  /** Attempts running in this process, by job id. */
  private readonly running = new Map<string, AbortController>();
  private stopping = false;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;
  private queued = { count: 0, readAt: 0, reading: false };

  constructor(
    private readonly store: QueueJournal,
    private readonly context: QueueContext,
  ) {}

  /** Starts a BullMQ worker (not for `receiver`) and sweeps once for rows without a job. */
  async start(): Promise<void> {
    if (this.context.role === 'receiver' || this.worker || this.stopping) return;
    const { options } = this.store;
    this.workerConnection = bullmqConnection(this.store.client, 'worker');
    const worker = new Worker<DeliveryJobData>(
      QUEUE_NAME,
      (job, token) => this.process(job, token),
      {
        connection: this.workerConnection,
        prefix: options.prefix,
        concurrency: this.context.limits().concurrency,
        lockDuration: options.lockDurationMs,
        stalledInterval: options.stalledIntervalMs,
        maxStalledCount: MAX_STALLED_COUNT,
        autorun: false,
      },
    );
    worker.on('error', (error) => {
      this.context.log.error({ err: errorMessage(error) }, 'queue worker error');
    });
    worker.on('failed', (job, error) => {
      this.context.log.error(
        { job_id: job?.id, err: errorMessage(error) },
        'a delivery job failed outside its attempt; BullMQ retries it, the sweep re-adds it after that',
      );
    });
    worker.on('stalled', (jobId) => {
      this.context.log.warn({ job_id: jobId }, 'the worker of a job stopped; the job runs again');
    });
    this.worker = worker;
    void worker.run().catch((error: unknown) => {
      this.context.log.error({ err: errorMessage(error) }, 'queue worker stopped');
    });
    await worker.waitUntilReady();
    await this.sweep();
    this.sweepTimer = setInterval(() => void this.sweep(), options.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  /** Adds the delivery's job (a no-op when it exists already). */
  async enqueue(record: DeliveryRecord): Promise<void> {
    await this.store.jobs.add(record, {
      delayMs: record.nextAttemptAt - Date.now(),
      retryBackoffMs: this.context.limits().retryBackoffMs,
    });
  }

  /** Queued deliveries across all processes (read from Redis at most once a second). */
  get queuedCount(): number {
    if (!this.queued.reading && Date.now() - this.queued.readAt > QUEUED_COUNT_TTL_MS) {
      this.queued.reading = true;
      this.store.client
        .zcard(this.store.keys.status('queued'))
        .then((count) => {
          this.queued.count = count;
        })
        .catch(() => undefined)
        .finally(() => {
          this.queued.readAt = Date.now();
          this.queued.reading = false;
        });
    }
    return this.queued.count;
  }

  /** Attempts running in this process. */
  get runningCount(): number {
    return this.running.size;
  }

  /**
   * A pause was lifted: the delayed jobs wake now (each worker that sees the resume asks; the
   * first moves them all). A job that was waiting for its retry or its pull request's turn goes
   * back to sleep when it finds the journal's time not yet come.
   */
  resumed(): void {
    if (!this.worker || this.stopping) return;
    this.store.jobs.promoteDelayed().catch((error: unknown) => {
      this.context.log.warn(
        { err: errorMessage(error) },
        'could not wake the delayed jobs after a resume; they look again within 30 s',
      );
    });
  }

  /**
   * Stops taking jobs and waits up to `timeoutMs` for running attempts. What is still running
   * then is aborted and put back in the queue for another worker (or the next start).
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweepTimer);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const closing = worker.close();
    if (!(await settlesWithin(closing, timeoutMs))) {
      this.context.log.warn(
        { running: this.running.size },
        'stop timed out; interrupted deliveries go back to the queue',
      );
      for (const abort of this.running.values()) abort.abort(new Error('gateway stopping'));
      if (!(await settlesWithin(closing, 5_000))) await worker.close(true);
    }
    if (this.workerConnection) await closeConnection(this.workerConnection);
    this.workerConnection = undefined;
  }

  /** One job: check the row, take its attempt slot, make one attempt, schedule what comes next. */
  private async process(job: Job<DeliveryJobData>, token: string | undefined): Promise<void> {
    const data = jobDataSchema.safeParse(job.data);
    if (!data.success) {
      this.context.log.error({ job_id: job.id }, 'discarding a delivery job with unreadable data');
      return;
    }
    const { id, seq } = data.data;
    const view = await this.store.runView(id);
    // Gone, finished (or superseded), or replayed under a newer seq (which has its own job):
    // nothing to do.
    if (!view || view.seq !== seq || isFinishedStatus(view.status)) {
      return;
    }
    const log = this.context.log.child({ route: view.route, delivery_id: view.deliveryId });
    const now = Date.now();
    if (view.status === 'running' && view.attempts >= view.maxAttempts) {
      // Only a dead worker leaves a row running for a job to find; that was its last attempt.
      await this.store.markFailed(
        id,
        LOST_LAST_ATTEMPT_ERROR,
        now,
        this.context.outbound?.(view.route),
      );
      log.error({ attempt: view.attempts }, 'delivery failed for good: its worker died');
      return;
    }
    if (view.status === 'queued' && view.nextAttemptAt > now) {
      return this.postpone(job, token, view.nextAttemptAt);
    }

    if (this.context.paused?.(view.route)) {
      // Journaled and queued; it starts after the resume, its pull request's line kept.
      return this.postpone(job, token, now + PAUSED_WAIT_MS * (0.75 + Math.random() * 0.5));
    }

    const limits = this.context.limits();
    if (this.worker && this.worker.concurrency !== limits.concurrency) {
      this.worker.concurrency = limits.concurrency;
    }
    const slot: AttemptSlot = {
      id,
      route: view.route,
      leaseMs: this.store.options.lockDurationMs,
      routeLimit: limits.routeConcurrency[view.route] ?? 0,
    };
    const claim = await claimAttemptSlot(this.store.client, this.store.keys, {
      ...slot,
      orderKey: view.orderKey,
      now,
    });
    if (!claim.granted) {
      const busy = now + this.store.options.busyDelayMs * (0.75 + Math.random() * 0.5);
      const at = Math.min(Math.max(busy, claim.retryAt), now + MAX_BLOCKED_WAIT_MS);
      return this.postpone(job, token, at);
    }

    const outcome = await this.attempt(job.id ?? jobIdOf(id, seq), slot, log);
    if (outcome.status === 'retry') return this.postpone(job, token, outcome.nextAttemptAt);
    if (outcome.status === 'interrupted') {
      await this.store.requeueInterrupted(id, Date.now());
      return this.postpone(job, token, Date.now());
    }
  }

  /** Runs one attempt in a claimed slot, renewing its route lease meanwhile, then gives it back. */
  private async attempt(jobKey: string, slot: AttemptSlot, log: Logger): Promise<AttemptOutcome> {
    const abort = new AbortController();
    this.running.set(jobKey, abort);
    const { client, keys } = this.store;
    const renewal =
      slot.routeLimit > 0
        ? setInterval(() => {
            renewAttemptSlot(client, keys, slot, Date.now()).catch((error: unknown) =>
              log.warn({ err: errorMessage(error) }, 'could not renew the route slot'),
            );
          }, slot.leaseMs / 3)
        : undefined;
    try {
      return await this.context.attempt(slot.id, abort.signal);
    } finally {
      clearInterval(renewal);
      this.running.delete(jobKey);
      if (slot.routeLimit > 0) {
        await releaseAttemptSlot(client, keys, slot).catch((error: unknown) =>
          log.warn({ err: errorMessage(error) }, 'could not release the route slot; it expires'),
        );
      }
    }
  }

  /** Puts the job back to sleep until `at` (BullMQ's delayed set) without counting a failure. */
  private async postpone(
    job: Job<DeliveryJobData>,
    token: string | undefined,
    at: number,
  ): Promise<never> {
    await job.moveToDelayed(Math.max(Math.round(at), Date.now()), token);
    throw new DelayedError();
  }

  /** Adds jobs for rows that lost theirs; one worker per interval does it (a lock with a TTL). */
  private async sweep(): Promise<void> {
    if (this.sweeping || this.stopping) return;
    this.sweeping = true;
    try {
      const interval = this.store.options.sweepIntervalMs;
      const locked = await this.store.client.set(
        this.store.keys.sweepLock,
        randomUUID(),
        'PX',
        Math.max(100, Math.floor(interval * 0.9)),
        'NX',
      );
      if (locked !== 'OK') return;
      const added = await addMissingJobs(this.store, this.store.jobs, Date.now());
      if (added > 0) {
        this.context.log.warn({ added }, 'added jobs for journal rows that had none');
      }
    } catch (error) {
      this.context.log.error(
        { err: errorMessage(error) },
        'the sweep for rows without a job failed',
      );
    } finally {
      this.sweeping = false;
    }
  }
}

/** True when `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return settled;
}
