/**
 * Checkpoints off the gateway's thread. In WAL mode a commit appends pages to the log, and every
 * so often the log is copied back into the database file (a checkpoint: megabytes of copying and
 * an fsync of both files). By default SQLite runs it inside whichever commit crosses the
 * threshold, stalling every request waiting on that commit. Here a worker thread with its own
 * connection runs passive checkpoints on a timer instead, and the store's connection never does.
 */
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints; a passive checkpoint with nothing to copy costs nothing. */
export const CHECKPOINT_INTERVAL_MS = 200;

/** Every how many checkpoints one is a RESTART, which keeps the log from growing under load. */
const RESTART_EVERY = 5;

/** The log's file is cut back to this size when it restarts (it only grows otherwise). */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** How long `stop()` waits for the worker's last checkpoint before terminating it. */
const STOP_TIMEOUT_MS = 5_000;

interface WorkerData {
  driver: string;
  path: string;
  synchronous: 'NORMAL' | 'FULL';
  busyTimeoutMs: number;
  intervalMs: number;
  restartEvery: number;
  walSizeLimit: number;
}

// Plain CommonJS, evaluated in the worker: no file to find next to the compiled code, so it runs
// the same from `dist/` and under the test runner.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
db.pragma('synchronous = ' + workerData.synchronous);
db.pragma('wal_autocheckpoint = 0');
db.pragma('journal_size_limit = ' + workerData.walSizeLimit);
let ticks = 0;
const checkpoint = () => {
  db.pragma('wal_checkpoint(PASSIVE)');
  // Now and then a RESTART (it waits for the writer's current commit): the log is copied to its
  // last frame, so the next commit starts it again from the top instead of growing it.
  if (++ticks % workerData.restartEvery === 0) db.pragma('wal_checkpoint(RESTART)');
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { checkpoint(); } finally { db.close(); parentPort.close(); }
});
`;

export interface CheckpointerOptions {
  path: string;
  fsync: boolean;
  busyTimeoutMs: number;
  /** Called once if the worker fails; the store then goes back to checkpointing in its commits. */
  onFailure: (error: Error) => void;
}

export class BackgroundCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<unknown>;

  constructor(options: CheckpointerOptions) {
    const workerData: WorkerData = {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      path: options.path,
      synchronous: options.fsync ? 'FULL' : 'NORMAL',
      busyTimeoutMs: options.busyTimeoutMs,
      intervalMs: CHECKPOINT_INTERVAL_MS,
      restartEvery: RESTART_EVERY,
      walSizeLimit: WAL_SIZE_LIMIT_BYTES,
    };
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    // A background helper: it never keeps the process alive on its own.
    this.worker.unref();
    // Settles on exit either way (an 'error' first makes `once` reject).
    this.exited = once(this.worker, 'exit').catch(() => undefined);
    this.worker.once('error', (error) => options.onFailure(error));
  }

  /** Runs a last checkpoint and closes the worker's connection. */
  async stop(): Promise<void> {
    this.worker.postMessage('stop');
    const timeout = setTimeout(() => void this.worker.terminate(), STOP_TIMEOUT_MS);
    try {
      await this.exited;
    } finally {
      clearTimeout(timeout);
    }
  }
}
