/**
 * Intake first. Accepting a delivery is what a sender waits on (and the forge gives up after
 * 10 s); running it can wait in the journal. So while deliveries pour in and keep this process's
 * event loop nearly always busy, the worker pool starts one attempt at a time, leaving the CPU to
 * the receiver, and takes back its full concurrency as soon as the burst is over. A trickle of
 * deliveries, or the workers' own load, never counts as pressure.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** How often the load is sampled. */
const PRESSURE_WINDOW_MS = 100;
/** Event-loop utilisation above which the process counts as busy. */
const BUSY_UTILIZATION = 0.9;
/** Accepted deliveries per window below which intake is not what keeps it busy (160/s). */
const MIN_ACCEPTS_PER_WINDOW = 16;

/** What the worker pool asks of an intake monitor. */
export interface IntakeMonitor {
  /** Whether intake is saturating the process right now. */
  readonly active: boolean;
  /** Counts one accepted delivery. */
  noteAccept(): void;
  start(): void;
  stop(): void;
}

export class IntakePressure implements IntakeMonitor {
  private accepts = 0;
  private sample: EventLoopUtilization = performance.eventLoopUtilization();
  private timer: NodeJS.Timeout | undefined;
  private saturated = false;

  /** @param onRelief called when a burst ends, so the pool can start what waited. */
  constructor(private readonly onRelief: () => void) {}

  /** Whether intake is saturating the process right now (as of the last sample). */
  get active(): boolean {
    return this.saturated;
  }

  /** Counts one accepted delivery. */
  noteAccept(): void {
    this.accepts++;
  }

  start(): void {
    this.sample = performance.eventLoopUtilization();
    this.timer = setInterval(() => this.measure(), PRESSURE_WINDOW_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.saturated = false;
  }

  /** Ends a window: busy loop and many accepts mean pressure. */
  measure(): void {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, this.sample);
    this.sample = now;
    const was = this.saturated;
    this.saturated = utilization > BUSY_UTILIZATION && this.accepts >= MIN_ACCEPTS_PER_WINDOW;
    this.accepts = 0;
    if (was && !this.saturated) this.onRelief();
  }
}
