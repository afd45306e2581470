/**
 * Reads what `queueStandings` needs from the journal: the queued rows (no payloads), the running
 * attempts, and each waiting route's recent run times. Every view of the queue reads it here.
 */
import type { GatewayConfig } from './config/schema.js';
import { queueLimits } from './queue.js';
import {
  queueStandings,
  typicalRunMs,
  type HeldBack,
  type QueueStanding,
  type RunningDelivery,
} from './queue-standing.js';
import type { QueuedDelivery, Store } from './store.js';

/** Queued rows read at most: a standing past this many is not worked out. */
const MOST_QUEUED = 2_000;
/** Running rows read at most. */
const MOST_RUNNING = 1_000;
/** A route's newest finished rows read for its run times, per status. */
const RECENT_ROWS = 20;
/** The statuses whose rows ran to an end: their attempts' durations are run times. */
const RAN_STATUSES = ['delivered', 'silent', 'failed'] as const;

export interface StandingsRead {
  standings: Map<string, QueueStanding>;
  /** The queued rows, in order of arrival. */
  queued: QueuedDelivery[];
  /** The attempts running now, as the journal has them. */
  running: RunningDelivery[];
  now: number;
}

/** The queued rows the standings are worked out from, in order of arrival (no payloads). */
export function readQueued(store: Pick<Store, 'queued'>): Promise<QueuedDelivery[]> {
  return store.queued(0, MOST_QUEUED);
}

/**
 * The standings of the queued deliveries, as the journal has them at `now`, under `config`'s
 * limits. A route an operator paused holds its deliveries back (`paused`, with the pause's
 * reason), before the queue's own rules. `queuedRows` are the queued rows when already read
 * (`readQueued`).
 */
export async function readQueueStandings(
  store: Pick<Store, 'queued' | 'list' | 'pauses'>,
  config: GatewayConfig,
  now: number,
  queuedRows?: QueuedDelivery[],
): Promise<StandingsRead> {
  const [queued, runningRows, pauses] = await Promise.all([
    queuedRows ?? readQueued(store),
    store.list({ status: 'running', limit: MOST_RUNNING }),
    store.pauses(),
  ]);
  const heldBack = (delivery: QueuedDelivery): HeldBack | undefined => {
    const pause = pauses.find((p) => p.route === null || p.route === delivery.route);
    if (pause === undefined) return undefined;
    return pause.reason === null ? { kind: 'paused' } : { kind: 'paused', reason: pause.reason };
  };
  const running: RunningDelivery[] = runningRows.map((row) => ({
    id: row.id,
    route: row.route,
    orderKey: row.orderKey,
    // The attempt under way began with its own entry in the log.
    startedAt: row.attemptLog.at(-1)?.startedAt ?? row.startedAt,
  }));
  const routes = new Set([...queued, ...running].map((row) => row.route));
  const runMs = new Map<string, number>();
  await Promise.all(
    [...routes].map(async (route) => {
      const finished = await Promise.all(
        RAN_STATUSES.map((status) => store.list({ route, status, limit: RECENT_ROWS })),
      );
      const newestFirst = finished.flat().sort((a, b) => b.seq - a.seq);
      const typical = typicalRunMs(newestFirst);
      if (typical !== undefined) runMs.set(route, typical);
    }),
  );
  const standings = queueStandings({
    queued,
    running,
    limits: queueLimits(config),
    runMs,
    now,
    heldBack,
  });
  return { standings, queued, running, now };
}
