/**
 * Tells the `deliveryWaiting` hook where each queued delivery stands, so a target that shows a
 * review's state on the forge can say "queued, 3rd" until the attempt starts. Every
 * `WAITING_PASS_MS` it works out the standings from the journal (`readQueueStandings`) and tells
 * each delivery that waits whenever its place (within the first `EXACT_PLACES`) or its pause
 * changed. Only deliveries whose route shows its waiting ones (`routeShowsWaiting`) are told,
 * and while no queued delivery's route shows, the pass reads the queued rows and nothing more.
 * On a shared store one gateway at a time does it (`Store.tryLease`). Nothing is read while no
 * plugin taps the hooks.
 */
import type { LiveConfig } from './config/live.js';
import { errorMessage } from './errors.js';
import type { Credentials, GatewayHooks } from './hooks.js';
import type { Logger } from './logger.js';
import { readQueued, readQueueStandings } from './queue-snapshot.js';
import type { QueueStanding } from './queue-standing.js';
import type { RouteResolver } from './routes.js';
import type { QueuedDelivery, Store } from './store.js';

/** How often the standings are worked out again. */
const WAITING_PASS_MS = 2_000;

/** How long the forge calls of one delivery may take. */
const TELL_TIMEOUT_MS = 30_000;

/**
 * Places told as they change. Further back a delivery is told once, and again when it gets this
 * near: a long queue moves every place at each start, and telling each would be one forge call
 * per queued delivery every pass.
 */
const EXACT_PLACES = 10;

/** What the forge was told of a standing: its place (or "further back") and whether paused. */
function toldAs(standing: QueueStanding): string {
  const place = standing.position <= EXACT_PLACES ? String(standing.position) : 'further back';
  const paused = standing.reasons.some((reason) => reason.kind === 'paused');
  return paused ? `${place}, paused` : place;
}

/** The lease that lets one gateway of a shared store tell the forge. */
const LEASE_NAME = 'queue-standings';

interface WaitingNoticesDeps {
  store: Store;
  hooks: GatewayHooks;
  config: LiveConfig;
  resolveRoute: RouteResolver;
  log: Logger;
  /** How often to pass (default `WAITING_PASS_MS`). */
  intervalMs?: number;
}

export interface WaitingNotices {
  stop(): void;
}

/** Starts the passes; `stop` ends them and aborts a telling under way. */
export function startWaitingNotices(deps: WaitingNoticesDeps): WaitingNotices {
  // What each queued delivery was last told (`toldAs`). Forgotten once it is no longer queued.
  const told = new Map<string, string>();
  const stopping = new AbortController();
  const intervalMs = deps.intervalMs ?? WAITING_PASS_MS;
  let passing = false;

  async function tell(standing: QueueStanding): Promise<void> {
    // Read again just before: it may have started since the standings were read.
    const delivery = await deps.store.get(standing.id);
    if (delivery?.status !== 'queued') return;
    const log = deps.log.child({ route: delivery.route, delivery_id: delivery.deliveryId });
    try {
      const routeConfig = await deps.resolveRoute(delivery.route);
      if (!routeConfig) return;
      const config = deps.config.current();
      const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(TELL_TIMEOUT_MS)]);
      let credentials: Promise<Credentials> | undefined;
      await deps.hooks.deliveryWaiting.promise({
        delivery,
        routeConfig,
        config,
        credentials: () =>
          (credentials ??= deps.hooks.credentials.promise(
            {},
            { delivery, routeConfig, config, log, signal },
          )),
        log,
        signal,
        standing,
      });
    } catch (error) {
      log.warn(
        { err: errorMessage(error) },
        "could not show a queued delivery's place on the forge",
      );
    }
  }

  /** The routes of `queued` whose waiting deliveries a plugin shows. */
  async function showingRoutes(queued: readonly QueuedDelivery[]): Promise<Set<string>> {
    const showing = new Set<string>();
    for (const route of new Set(queued.map((row) => row.route))) {
      const routeConfig = await deps.resolveRoute(route);
      if (routeConfig && deps.hooks.routeShowsWaiting.call(routeConfig) === true) {
        showing.add(route);
      }
    }
    return showing;
  }

  async function pass(): Promise<void> {
    const { hooks } = deps;
    if (passing || stopping.signal.aborted) return;
    if (!hooks.deliveryWaiting.isUsed() || !hooks.routeShowsWaiting.isUsed()) return;
    passing = true;
    try {
      const { store } = deps;
      if (store.tryLease && !(await store.tryLease(LEASE_NAME, intervalMs * 3))) return;
      const queued = await readQueued(store);
      const showing = await showingRoutes(queued);
      // The usual case, an empty queue or one whose routes show nothing, ends here: the
      // standings' other reads and the telling cost one journal read and a hook call per
      // delivery, which a busy queue on a `log` route would pay every pass.
      if (showing.size === 0) {
        told.clear();
        return;
      }
      const { standings } = await readQueueStandings(
        store,
        deps.config.current(),
        Date.now(),
        queued,
      );
      for (const id of told.keys()) if (!standings.has(id)) told.delete(id);
      for (const standing of standings.values()) {
        if (stopping.signal.aborted) return;
        if (!showing.has(standing.route)) continue;
        // One that starts now is about to show its own start (`attemptStarted`).
        if (standing.reasons.length === 0 || told.get(standing.id) === toldAs(standing)) continue;
        told.set(standing.id, toldAs(standing));
        await tell(standing);
      }
    } catch (error) {
      deps.log.error({ err: errorMessage(error) }, 'could not work out the queue standings');
    } finally {
      passing = false;
    }
  }

  const timer = setInterval(() => void pass(), intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      stopping.abort(new Error('gateway stopping'));
    },
  };
}
