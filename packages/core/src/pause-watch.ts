/**
 * What a gateway process knows of the journal's pauses (`Store.pauses`): read at start, then
 * every second, so a pause or resume made by another process (`webhook-gateway pause`, the
 * dashboard of another gateway on a shared store) is seen within about a second, and neither a
 * request nor an attempt waits for a read.
 */
import { errorMessage } from './errors.js';
import type { Logger } from './logger.js';
import type { Pause, Store } from './store.js';

/** Whether `pauses` hold back new attempts of `route`: its own pause, or one of every route. */
export function isPaused(pauses: readonly Pause[], route: string): boolean {
  return pauses.some((pause) => pause.route === null || pause.route === route);
}

/** The key a pause is known by: its route, or the empty name for every route. */
function keyOf(pause: Pause): string {
  return pause.route === null ? '' : `route:${pause.route}`;
}

export interface PauseWatchOptions {
  store: Pick<Store, 'pauses'>;
  log: Logger;
  /** How often the journal is read (default 1000 ms). */
  intervalMs?: number;
  /** Called when a pause is lifted, so the queue looks again at what waited. */
  onResume?: () => void;
}

/** The pauses in force as this process last read them. */
export class PauseWatch {
  private known: readonly Pause[] = [];
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  /** Set while reads fail, so the log says so once, not every second. */
  private failing = false;

  constructor(private readonly options: PauseWatchOptions) {}

  /** The pauses in force, oldest first. */
  get pauses(): readonly Pause[] {
    return this.known;
  }

  isPaused(route: string): boolean {
    return isPaused(this.known, route);
  }

  /** Reads the pauses once (a failure is logged, and nothing is taken as paused), then every interval. */
  async start(): Promise<void> {
    await this.read();
    this.timer = setInterval(() => void this.read(), this.options.intervalMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads the journal's pauses now; the last list read stays while the store does not answer. */
  async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    const { log } = this.options;
    try {
      const next = await this.options.store.pauses();
      if (this.failing) log.info('reading the pauses works again');
      this.failing = false;
      const before = new Map(this.known.map((pause) => [keyOf(pause), pause]));
      const after = new Set(next.map(keyOf));
      for (const pause of next) {
        if (!before.has(keyOf(pause))) {
          log.info(
            { route: pause.route ?? '*', reason: pause.reason, since: pause.since },
            pause.route === null ? 'every route is paused' : 'route paused',
          );
        }
      }
      const lifted = [...before.values()].filter((pause) => !after.has(keyOf(pause)));
      for (const pause of lifted) {
        log.info(
          { route: pause.route ?? '*' },
          pause.route === null ? 'the pause of every route is lifted' : 'route resumed',
        );
      }
      this.known = next;
      if (lifted.length > 0) this.options.onResume?.();
    } catch (error) {
      if (!this.failing) {
        log.warn(
          { err: errorMessage(error) },
          'could not read the pauses from the journal; keeping the last ones read',
        );
      }
      this.failing = true;
    } finally {
      this.reading = false;
    }
  }
}
