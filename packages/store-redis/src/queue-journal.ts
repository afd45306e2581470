/**
 * What the shared queue needs of the Redis store: its connection, keys, jobs and the journal
 * changes a worker makes around an attempt. The queue depends on this, not on the store class.
 */
import type { DeliveryStatus, OutboundPlan } from '@webhook-gateway/core';
import type { Redis } from 'ioredis';
import type { JobProducer } from './jobs.js';
import type { RedisKeys } from './keys.js';
import type { ResolvedRedisOptions } from './options.js';
import type { SweepSource } from './reconcile.js';

/** What a worker reads before deciding to run a job: small, without the payload. */
export interface RunView {
  id: string;
  seq: number;
  status: DeliveryStatus;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: number;
  route: string;
  orderKey: string | null;
  deliveryId: string;
}

export interface QueueJournal extends SweepSource {
  readonly client: Redis;
  readonly keys: RedisKeys;
  readonly options: ResolvedRedisOptions;
  readonly jobs: JobProducer;
  runView(id: string): Promise<RunView | undefined>;
  markFailed(id: string, error: string, now: number, outbound?: OutboundPlan): Promise<void>;
  /** Puts a running row back in the queue with an interrupted attempt. */
  requeueInterrupted(id: string, now: number): Promise<void>;
}
