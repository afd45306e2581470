/**
 * Checkpoints off the gateway's thread. In WAL mode a commit appends pages to the log, and every
 * so often the log is copied back into the database file (a checkpoint: megabytes of copying and
 * an fsync of both files). By default SQLite runs it inside whichever commit crosses the
 * threshold, stalling every request waiting on that commit. Here a worker thread with its own
 * connection runs passive checkpoints on a timer instead, and the store's connection never does.
 *
 * Under steady writes a passive checkpoint never catches up with the log's last frame, and only
 * a fully copied log starts again from the top; otherwise it grows for ever. SQLite's RESTART
 * mode would do that by taking the write lock, and the store's next commit would then sleep in
 * SQLite's busy handler (about 10 ms, once a second). Instead the two threads share a small
 * lock: now and then the worker holds the store's commits back (they wait on the event loop,
 * never blocking it) while a last passive checkpoint copies the last few frames.
 *
 * The log's file is not cut back when it starts again (`journal_size_limit`): truncating it
 * stalled that commit by ~20 ms. It keeps the size of the largest second of writes until the
 * gateway stops, when SQLite removes it.
 */
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints; a passive checkpoint with nothing to copy costs nothing. */
export const CHECKPOINT_INTERVAL_MS = 200;

/** Every how many checkpoints one holds commits back to finish the log, so it starts again. */
const FINISH_EVERY = 5;

/** The longest the store's commits wait for the worker before going ahead regardless. */
const MAX_HELD_BACK_MS = 1_000;

/** The shared lock's states. */
const FREE = 0;
const STORE_COMMITTING = 1;
const WORKER_FINISHING = 2;

/** The log's size past which the worker truncates it whatever it costs the commits waiting. */
const MAX_LOG_BYTES = 1024 * 1024 * 1024;

/** How long `stop()` waits for the worker's last checkpoint before terminating it. */
const STOP_TIMEOUT_MS = 5_000;

interface WorkerData {
  driver: string;
  path: string;
  synchronous: 'NORMAL' | 'FULL';
  busyTimeoutMs: number;
  intervalMs: number;
  finishEvery: number;
  maxLogBytes: number;
  lock: SharedArrayBuffer;
}

// Plain CommonJS, evaluated in the worker: no file to find next to the compiled code, so it runs
// the same from `dist/` and under the test runner.
const WORKER_SOURCE = /* js */ `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
db.pragma('synchronous = ' + workerData.synchronous);
db.pragma('wal_autocheckpoint = 0');
const lock = new Int32Array(workerData.lock);
let ticks = 0;
const checkpoint = () => {
  db.pragma('wal_checkpoint(PASSIVE)');
  if (++ticks % workerData.finishEvery !== 0) return;
  // Once more without holding anything: what the commits wrote during the first pass. What is
  // left after that is small, and copying it (and syncing both files) is all commits wait for.
  db.pragma('wal_checkpoint(PASSIVE)');
  // Wait out a commit in progress, then keep the next ones back while the last frames are
  // copied: the log is then complete and the next commit starts it again from the top.
  while (Atomics.compareExchange(lock, 0, ${FREE}, ${WORKER_FINISHING}) !== ${FREE}) {
    Atomics.wait(lock, 0, ${STORE_COMMITTING}, 5);
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } finally {
    Atomics.store(lock, 0, ${FREE});
  }
  // Another process writing the same file (a second gateway, the CLI) is not held back, and
  // under its steady writes the log may never be complete. Past a size, take SQLite's write
  // lock to copy and truncate it: commits wait in SQLite's busy handler for that once.
  if (fs.statSync(workerData.path + '-wal', { throwIfNoEntry: false })?.size > workerData.maxLogBytes) {
    db.pragma('wal_checkpoint(TRUNCATE)');
  }
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
  /** For tests: the log size that forces a truncating checkpoint (default `MAX_LOG_BYTES`). */
  maxLogBytes?: number;
  /** Called once if the worker fails; the store then goes back to checkpointing in its commits. */
  onFailure: (error: Error) => void;
}

export class BackgroundCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<unknown>;
  private readonly lock = new Int32Array(new SharedArrayBuffer(4));
  private heldBackSince: number | undefined;

  constructor(options: CheckpointerOptions) {
    const workerData: WorkerData = {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      path: options.path,
      synchronous: options.fsync ? 'FULL' : 'NORMAL',
      busyTimeoutMs: options.busyTimeoutMs,
      intervalMs: CHECKPOINT_INTERVAL_MS,
      finishEvery: FINISH_EVERY,
      maxLogBytes: options.maxLogBytes ?? MAX_LOG_BYTES,
      lock: this.lock.buffer,
    };
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    // A background helper: it never keeps the process alive on its own.
    this.worker.unref();
    // Settles on exit either way (an 'error' first makes `once` reject).
    this.exited = once(this.worker, 'exit').catch(() => undefined);
    this.worker.once('error', (error) => options.onFailure(error));
  }

  /**
   * Takes the lock for one commit of the store; false while the worker is finishing the log
   * (the commit then waits a moment, off the event loop's back).
   */
  enterCommit(): boolean {
    if (Atomics.compareExchange(this.lock, 0, FREE, STORE_COMMITTING) === FREE) {
      this.heldBackSince = undefined;
      return true;
    }
    // Finishing takes a few milliseconds; a worker stuck holding the lock must not stop the
    // journal, so past a second the store goes ahead regardless.
    const now = performance.now();
    this.heldBackSince ??= now;
    if (now - this.heldBackSince < MAX_HELD_BACK_MS) return false;
    Atomics.store(this.lock, 0, STORE_COMMITTING);
    this.heldBackSince = undefined;
    return true;
  }

  leaveCommit(): void {
    Atomics.store(this.lock, 0, FREE);
    Atomics.notify(this.lock, 0);
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
