/**
 * The standings of the queued deliveries a `deliveries` command shows, read from the journal
 * under the config's limits (`readQueueStandings`); nothing is read when none is queued.
 */
import {
  readQueueStandings,
  type GatewayConfig,
  type QueueStanding,
  type Store,
} from '@webhook-gateway/core';

/** Each queued delivery's standing by journal id; empty when `records` has none queued. */
export async function standingsOf(
  store: Store,
  config: GatewayConfig,
  records: readonly { status: string }[],
  now: number,
): Promise<ReadonlyMap<string, QueueStanding>> {
  if (!records.some((record) => record.status === 'queued')) return new Map();
  return (await readQueueStandings(store, config, now)).standings;
}
