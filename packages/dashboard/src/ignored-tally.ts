/**
 * Ignored requests per hour, counted by this process. The gateway answers them and journals
 * nothing (a filter, a command that was not given, its own comment), so the overview's hourly
 * chart can only take them from here: they start at zero when the gateway starts.
 */
import { HOUR_MS } from './overview-data.js';

/** How many hours are kept: the overview's longest window, 7 days. */
const KEPT_HOURS = 7 * 24;

export class IgnoredTally {
  /** Hour start (ms, on the UTC hour) to count; at most `KEPT_HOURS` entries. */
  private readonly byHour = new Map<number, number>();

  /** Counts one ignored request answered at `at`. */
  add(at: number): void {
    const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
    const count = this.byHour.get(hour);
    if (count !== undefined) {
      this.byHour.set(hour, count + 1);
      return;
    }
    // A new hour: the place to drop the ones that left the window.
    this.byHour.set(hour, 1);
    const oldestKept = hour - (KEPT_HOURS - 1) * HOUR_MS;
    for (const start of this.byHour.keys()) {
      if (start < oldestKept) this.byHour.delete(start);
    }
  }

  /** The counts by hour start. */
  perHour(): ReadonlyMap<number, number> {
    return this.byHour;
  }
}
