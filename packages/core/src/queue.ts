/** How accepted deliveries reach the workers: the embedded pool, or a store's shared queue. */
import type { AttemptDeps } from './attempt.js';
import type { DeliveryRecord } from './delivery.js';

export interface DeliveryQueue {
  /** Starts taking work (recovering what a crash left behind). */
  start(): Promise<void>;
  /** Hands over a delivery the receiver just journaled. */
  enqueue(record: DeliveryRecord): void | Promise<void>;
  /** Stops taking work; waits up to `timeoutMs` for running attempts. */
  stop(timeoutMs: number): Promise<void>;
  readonly queuedCount: number;
  readonly runningCount: number;
}

/** What a store needs to run its own queue (Redis/BullMQ): the attempt logic and the role. */
export interface QueueContext extends AttemptDeps {
  /** `receiver` only enqueues; `worker` only runs; `all` does both. */
  role: GatewayRole;
}

export type GatewayRole = 'all' | 'receiver' | 'worker';
