/**
 * Group commit: the calls made during one event-loop tick are committed together, in one
 * transaction, on the next `setImmediate`. A commit (and its fsync) is the expensive part of a
 * write, so a burst of requests shares one instead of paying one each.
 */

/**
 * Lets another thread hold scheduled commits back for a moment (`checkpointer.ts`): `enter()`
 * false means "not now", and the batch is tried again 1 ms later, off the event loop's back.
 */
export interface CommitGate {
  enter(): boolean;
  leave(): void;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];
  private scheduled = false;

  /**
   * @param commit Runs the whole batch in one transaction and returns one result per item, in
   *   order; returns only after COMMIT. If it throws, nothing was committed and every caller
   *   of the batch sees the error.
   */
  constructor(
    private readonly commit: (items: readonly Item[]) => Result[],
    private readonly gate?: CommitGate,
  ) {}

  /** Queues an item; resolves with its result once its batch is committed. */
  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flushWhenOpen());
      }
    });
  }

  /** How many items wait for the next commit. */
  get pending(): number {
    return this.waiting.length;
  }

  /**
   * Commits whatever is waiting now, gate or not: for reads that must see earlier writes, and
   * `close()`, so nothing is left behind.
   */
  flush(): void {
    this.scheduled = false;
    this.commitWaiting();
  }

  /** The scheduled commit: waits while the gate is closed. */
  private flushWhenOpen(): void {
    this.scheduled = false;
    if (this.waiting.length === 0) return;
    if (this.gate && !this.gate.enter()) {
      this.scheduled = true;
      setTimeout(() => this.flushWhenOpen(), 1);
      return;
    }
    try {
      this.commitWaiting();
    } finally {
      this.gate?.leave();
    }
  }

  private commitWaiting(): void {
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    let results: Result[];
    try {
      results = this.commit(batch.map((waiting) => waiting.item));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, index) => {
      if (index < results.length) waiting.resolve(results[index] as Result);
      else waiting.reject(new Error(`group commit returned no result for item ${index}`));
    });
  }
}
