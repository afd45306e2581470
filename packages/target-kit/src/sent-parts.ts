/**
 * How many parts of a split answer a target already sent (each message or text may cost money),
 * per delivery, so that a retry (after part 3 of 5 failed) resumes at part 3 instead of repeating
 * 1 and 2. Kept in memory: after a restart a retry starts over, which repeats parts but loses none.
 */
export class SentParts {
  private readonly counts = new Map<string, number>();

  /** @param capacity entries kept; the oldest are forgotten first (failed-for-good leftovers). */
  constructor(private readonly capacity = 1000) {}

  sentCount(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  record(key: string, count: number): void {
    this.counts.delete(key);
    this.counts.set(key, count);
    while (this.counts.size > this.capacity) {
      const oldest = this.counts.keys().next();
      if (oldest.done) break;
      this.counts.delete(oldest.value);
    }
  }

  forget(key: string): void {
    this.counts.delete(key);
  }
}
