/**
 * BullMQ jobs for journal rows. A job carries only `{ id, seq }`: the journal is the truth, the
 * job is a ticket to run it. Its id is `<journal id>.<seq>`, so adding it twice is a no-op and a
 * replay (new seq) gets a new job while a leftover job of the old seq is recognised as stale.
 */
import { Queue, type JobState } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { QUEUE_NAME } from './keys.js';
import type { ResolvedRedisOptions } from './options.js';

const DELIVERY_JOB_NAME = 'delivery';

/** The job's data, checked when a worker reads it back. */
export const jobDataSchema = z.object({ id: z.string().min(1), seq: z.number().int() });
export type DeliveryJobData = z.infer<typeof jobDataSchema>;

/** The BullMQ job id of a journal row's current run. */
export function jobIdOf(id: string, seq: number): string {
  return `${id}.${seq}`;
}

const jobFieldsSchema = z.tuple([z.string().nullable(), z.string().nullable()]);

/** Whether a job will still run: `live` (waiting, delayed or active), `finished`, or `missing`. */
export type JobLiveness = 'live' | 'finished' | 'missing';

/** What a job needs from its row. */
export interface JobTarget {
  id: string;
  seq: number;
  maxAttempts: number;
}

/** Adds and inspects delivery jobs (BullMQ `Queue`); opens its connection on first use. */
export class JobProducer {
  private queue: Queue<DeliveryJobData> | undefined;
  private connection: Redis | undefined;

  constructor(
    private readonly openConnection: () => Redis,
    private readonly options: ResolvedRedisOptions,
  ) {}

  /**
   * Adds the job of `target`'s current seq unless it exists. BullMQ's own attempts and backoff
   * cover errors outside an attempt (Redis hiccups); an attempt's own retries are scheduled by the
   * worker at the time the journal shows.
   */
  async add(
    target: JobTarget,
    options: { delayMs?: number; retryBackoffMs?: number } = {},
  ): Promise<void> {
    await this.open().add(
      DELIVERY_JOB_NAME,
      { id: target.id, seq: target.seq },
      {
        jobId: jobIdOf(target.id, target.seq),
        delay: Math.max(0, Math.round(options.delayMs ?? 0)),
        attempts: Math.max(1, target.maxAttempts),
        backoff: {
          type: 'exponential',
          delay: options.retryBackoffMs ?? this.options.retryBackoffMs,
        },
        removeOnComplete: { count: this.options.keepCompletedJobs },
        removeOnFail: { count: this.options.keepFailedJobs },
      },
    );
  }

  state(jobId: string): Promise<JobState | 'unknown'> {
    return this.open().getJobState(jobId);
  }

  /**
   * The liveness of many jobs in one round trip. `getJobState` scans BullMQ's wait list per job
   * (slow with a backlog); a job's hash answers in O(1): it exists while the job does, and gets
   * `finishedOn` when the job completes or fails.
   */
  async liveness(jobIds: readonly string[]): Promise<JobLiveness[]> {
    if (jobIds.length === 0) return [];
    const queue = this.open();
    const connection = this.connection;
    if (!connection) throw new Error('the job queue is closed');
    const pipeline = connection.pipeline();
    for (const jobId of jobIds) pipeline.hmget(queue.toKey(jobId), 'timestamp', 'finishedOn');
    const replies = (await pipeline.exec()) ?? [];
    return jobIds.map((jobId, index) => {
      const [error, value] = replies[index] ?? [new Error('no reply'), null];
      if (error) throw new Error(`could not read job ${jobId}: ${error.message}`);
      const fields = jobFieldsSchema.safeParse(value);
      if (!fields.success) throw new Error(`job ${jobId} answered ${JSON.stringify(value)}`);
      const [timestamp, finishedOn] = fields.data;
      if (timestamp === null) return 'missing';
      return finishedOn === null ? 'live' : 'finished';
    });
  }

  /** Moves every delayed job to the waiting list (a resume: paused jobs sleep in the delayed set). */
  async promoteDelayed(): Promise<void> {
    await this.open().promoteJobs();
  }

  /** Removes a finished job so a job of the same id can be added again. */
  async remove(jobId: string): Promise<void> {
    await this.open().remove(jobId);
  }

  async close(): Promise<void> {
    const queue = this.queue;
    const connection = this.connection;
    this.queue = undefined;
    this.connection = undefined;
    if (queue) await queue.close();
    if (connection) connection.disconnect();
  }

  private open(): Queue<DeliveryJobData> {
    if (!this.queue) {
      this.connection = this.openConnection();
      this.queue = new Queue<DeliveryJobData>(QUEUE_NAME, {
        connection: this.connection,
        prefix: this.options.prefix,
      });
      this.queue.on('error', () => undefined);
    }
    return this.queue;
  }
}
