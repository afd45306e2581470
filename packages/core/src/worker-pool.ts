/**
 * The embedded queue decides only when each accepted delivery's attempt starts: within a global
 * limit and a per-route limit, one at a time per pull/merge request in order of arrival, and a
 * retry once its backoff has passed. What an attempt does (render → run → deliver) is the
 * attempt's job (`attempt.ts`). The store is the truth; this keeps only light handles.
 */
import type { DeliveryRecord } from './delivery.js';
import { errorMessage } from './errors.js';
import { IntakePressure, type IntakeMonitor } from './intake-pressure.js';
import type { Logger } from './logger.js';
import type { Attempt, DeliveryQueue, QueueLimits } from './queue.js';
import type { Store } from './store.js';

/** What the pool remembers of a queued delivery. */
interface QueuedItem {
  id: string;
  seq: number;
  route: string;
  orderKey: string | null;
  nextAttemptAt: number;
}

interface RunningItem {
  route: string;
  orderKey: string | null;
  abort: AbortController;
  done: Promise<void>;
}

export interface WorkerPoolOptions {
  /** The journal: the pool reads what is queued from it. */
  store: Pick<Store, 'recover' | 'queued'>;
  /** One attempt at a delivery; the pool decides only when. */
  attempt: Attempt;
  limits: () => QueueLimits;
  log: Logger;
  /** True while new attempts of `route` are paused: its deliveries stay queued, in order. */
  paused?: (route: string) => boolean;
  /** How often to look for deliveries queued by another process (`deliveries replay`). */
  pollIntervalMs?: number;
  /**
   * Watches whether accepting deliveries saturates this process (default `IntakePressure`):
   * the pool then starts one attempt at a time, and takes back its concurrency when it ends.
   */
  intake?: IntakeMonitor;
  /** At most this many queued deliveries are held in memory (default `MAX_HELD`). */
  maxHeld?: number;
}

/**
 * How many queued deliveries the pool holds in memory. A backlog beyond it stays in the journal
 * only, and the poll loads it as the held ones run: memory stays flat however long the backlog.
 */
const MAX_HELD = 5_000;

/** Rows read from the journal per query when polling. */
const POLL_PAGE = 1_000;

/** The embedded queue: the journal is the truth, this process schedules from it. */
export class WorkerPool implements DeliveryQueue {
  /** Sorted by seq (order of arrival). */
  private readonly queue: QueuedItem[] = [];
  private readonly known = new Set<string>();
  private readonly running = new Map<string, RunningItem>();
  private readonly runningPerRoute = new Map<string, number>();
  private readonly busyOrderKeys = new Set<string>();
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeAt = Infinity;
  private pollTimer: NodeJS.Timeout | undefined;
  /** Every queued row with a seq up to here is held, running or finished. */
  private pollCursor = 0;
  /** Set while queued rows wait in the journal only (the pool held `maxHeld` when they came). */
  private spilled = false;
  /** How many rows were left to the journal so far (a poll checks none came while it read). */
  private spills = 0;
  private polling = false;
  private dispatchScheduled = false;
  private stopping = false;
  private readonly intake: IntakeMonitor;

  constructor(private readonly options: WorkerPoolOptions) {
    this.intake = options.intake ?? new IntakePressure(() => this.wake());
  }

  /** Puts crashed attempts back in the queue, loads every queued delivery and starts polling. */
  async start(): Promise<void> {
    const recovered = await this.options.store.recover();
    if (recovered > 0)
      this.options.log.warn({ recovered }, 'requeued deliveries interrupted by a stop');
    await this.poll();
    const interval = this.options.pollIntervalMs ?? 1000;
    this.pollTimer = setInterval(() => void this.poll(), interval);
    this.pollTimer.unref();
    this.intake.start();
  }

  /**
   * Queues a delivery the receiver just journaled, or leaves it to the poll when the pool is full
   * or older deliveries wait in the journal (held ones must stay the oldest, so a pull request's
   * deliveries still run in order of arrival).
   */
  enqueue(record: DeliveryRecord): void {
    this.intake.noteAccept();
    if (this.spilled || this.isFull()) this.spill(record.seq);
    else this.add(record);
    this.scheduleDispatch();
  }

  /** Starts whatever may run now (called when intake pressure ends). */
  wake(): void {
    this.scheduleDispatch();
  }

  /** A pause was lifted: what waited starts now, in order. */
  resumed(): void {
    this.scheduleDispatch();
  }

  get queuedCount(): number {
    return this.queue.length;
  }

  get runningCount(): number {
    return this.running.size;
  }

  /**
   * Stops taking work and waits up to `timeoutMs` for running deliveries. Whatever is still
   * running then is aborted and left `running` in the journal, to be requeued at the next start.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    this.intake.stop();
    clearInterval(this.pollTimer);
    clearTimeout(this.wakeTimer);
    const all = Promise.allSettled([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      this.options.log.warn(
        { running: this.running.size },
        'stop timed out; interrupted attempts will be requeued at the next start',
      );
      for (const item of this.running.values()) item.abort.abort(new Error('gateway stopping'));
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    }
  }

  /** Picks up queued rows this process has not seen (replays from the CLI, a crash's leftovers). */
  private async poll(): Promise<void> {
    if (this.polling || this.stopping) return;
    this.polling = true;
    try {
      let full = false;
      let spillsBefore;
      do {
        spillsBefore = this.spills;
        full = await this.loadQueued();
        // Deliveries left to the journal while it read: another pass reads them.
      } while (!full && this.spills !== spillsBefore);
      // Everything queued is held now, so new deliveries may be held directly again.
      if (!full) this.spilled = false;
      this.scheduleDispatch();
    } catch (error) {
      this.options.log.error({ err: errorMessage(error) }, 'could not read queued deliveries');
    } finally {
      this.polling = false;
    }
  }

  /** Reads queued rows past the cursor into the queue; true when it filled up first. */
  private async loadQueued(): Promise<boolean> {
    for (;;) {
      const rows = await this.options.store.queued(this.pollCursor, POLL_PAGE);
      for (const row of rows) {
        if (!this.known.has(row.id)) {
          if (this.isFull()) {
            this.spill(row.seq);
            return true;
          }
          this.add(row);
        }
        this.pollCursor = Math.max(this.pollCursor, row.seq);
      }
      if (rows.length < POLL_PAGE) return false;
    }
  }

  private isFull(): boolean {
    return this.queue.length >= (this.options.maxHeld ?? MAX_HELD);
  }

  /** Leaves a queued row to the poll: the cursor goes back so the next poll reads it. */
  private spill(seq: number): void {
    this.spilled = true;
    this.spills++;
    this.pollCursor = Math.min(this.pollCursor, seq - 1);
  }

  private add(
    record: Pick<DeliveryRecord, 'id' | 'seq' | 'route' | 'orderKey' | 'nextAttemptAt'>,
  ): void {
    if (this.known.has(record.id)) return;
    this.known.add(record.id);
    const item: QueuedItem = {
      id: record.id,
      seq: record.seq,
      route: record.route,
      orderKey: record.orderKey,
      nextAttemptAt: record.nextAttemptAt,
    };
    // Nearly always an append; a retry or replay of an older row goes back to its place.
    let index = this.queue.length;
    while (index > 0 && (this.queue[index - 1]?.seq ?? 0) > item.seq) index--;
    this.queue.splice(index, 0, item);
  }

  private scheduleDispatch(): void {
    if (this.dispatchScheduled || this.stopping) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.stopping) return;
    const limits = this.options.limits();
    const now = Date.now();
    const blocked = new Set(this.busyOrderKeys);
    let nextWake = Infinity;
    const limit = this.intake.active ? Math.min(1, limits.concurrency) : limits.concurrency;
    const paused = this.options.paused;
    for (let i = 0; i < this.queue.length && this.running.size < limit; i++) {
      const item = this.queue[i];
      if (!item) break;
      if (item.orderKey !== null) {
        // An earlier delivery about the same pull request, running or waiting, goes first.
        if (blocked.has(item.orderKey)) continue;
        blocked.add(item.orderKey);
      }
      // A paused route's deliveries keep their place; `resumed` dispatches again.
      if (paused?.(item.route)) continue;
      if (item.nextAttemptAt > now) {
        nextWake = Math.min(nextWake, item.nextAttemptAt);
        continue;
      }
      const routeLimit = limits.routeConcurrency[item.route];
      if (routeLimit !== undefined && (this.runningPerRoute.get(item.route) ?? 0) >= routeLimit)
        continue;
      this.queue.splice(i, 1);
      i--;
      this.launch(item);
    }
    if (nextWake < Infinity) this.wakeUpAt(nextWake);
  }

  private wakeUpAt(at: number): void {
    if (at >= this.wakeAt && this.wakeTimer) return;
    clearTimeout(this.wakeTimer);
    this.wakeAt = at;
    this.wakeTimer = setTimeout(
      () => {
        this.wakeTimer = undefined;
        this.wakeAt = Infinity;
        this.dispatch();
      },
      Math.max(0, at - Date.now()),
    );
  }

  private launch(item: QueuedItem): void {
    const abort = new AbortController();
    this.runningPerRoute.set(item.route, (this.runningPerRoute.get(item.route) ?? 0) + 1);
    if (item.orderKey !== null) this.busyOrderKeys.add(item.orderKey);
    const done = this.process(item, abort)
      .catch((error: unknown) => {
        this.options.log.error({ route: item.route, err: errorMessage(error) }, 'worker error');
      })
      .finally(() => {
        this.running.delete(item.id);
        this.runningPerRoute.set(item.route, (this.runningPerRoute.get(item.route) ?? 1) - 1);
        if (item.orderKey !== null) this.busyOrderKeys.delete(item.orderKey);
        // A backlog left in the journal is loaded as soon as half of what is held has run.
        if (this.spilled && this.queue.length <= (this.options.maxHeld ?? MAX_HELD) / 2) {
          void this.poll();
        }
        this.scheduleDispatch();
      });
    this.running.set(item.id, { route: item.route, orderKey: item.orderKey, abort, done });
  }

  /** One attempt; a retry goes back into the queue at its place, with its backoff. */
  private async process(item: QueuedItem, abort: AbortController): Promise<void> {
    const outcome = await this.options.attempt(item.id, abort.signal);
    if (outcome.status === 'retry') {
      this.known.delete(item.id);
      this.add({ ...item, nextAttemptAt: outcome.nextAttemptAt });
    } else if (outcome.status !== 'interrupted') {
      this.known.delete(item.id);
    }
  }
}
