/** The human output of `deliveries list`: one aligned row per delivery, newest first. */
import { standingText, type DeliveryRecord, type QueueStanding } from '@webhook-gateway/core';
import { formatDuration, formatTable, formatTime } from '../../table.js';
import { formatCost } from './money.js';
import { printable } from './printable.js';
import { deliveryDurationMs } from './timing.js';

export const LIST_HEADER = [
  'ID',
  'RECEIVED',
  'ROUTE',
  'EVENT',
  'ACTION',
  'DELIVERY ID',
  'STATUS',
  'ATTEMPTS',
  'DURATION',
  'TOKENS',
] as const;

/** The column added when a listed delivery is queued: its place in its route's queue. */
export const QUEUE_HEADER = 'QUEUE';

/** The column added when a listed delivery has a cost (`agent.prices` was set when it ran). */
export const COST_HEADER = 'COST';

/**
 * A table row: attempts as "made/allowed", a missing action, duration or token count as "-". The event,
 * action and delivery id come from the sender, so their control characters are escaped. With
 * `withCost`, a last column of money (`-` for a delivery that has none).
 */
export function deliveryListRow(record: DeliveryRecord, withCost = false): string[] {
  const cost = record.agent?.cost;
  const row = [
    record.id,
    formatTime(record.receivedAt),
    record.route,
    printable(record.event),
    record.action === null ? '-' : printable(record.action),
    printable(record.deliveryId),
    // A review a limit cut short is delivered, and says so.
    record.partial ? `${record.status} (partial)` : record.status,
    `${record.attempts}/${record.maxAttempts}`,
    formatDuration(deliveryDurationMs(record)),
    record.agent?.usage ? String(record.agent.usage.totalTokens) : '-',
  ];
  if (withCost) row.push(cost ? formatCost(cost) : '-');
  return row;
}

/**
 * The table, or one line saying nothing matched (naming the filters, so an empty answer is not
 * mistaken for an empty journal).
 */
export function formatDeliveryList(
  records: readonly DeliveryRecord[],
  filter: { route?: string; status?: string } = {},
  standings: ReadonlyMap<string, QueueStanding> = new Map(),
  now = Date.now(),
): string {
  if (records.length === 0) {
    const conditions = [
      filter.route === undefined ? undefined : `route ${filter.route}`,
      filter.status === undefined ? undefined : `status ${filter.status}`,
    ].filter((condition) => condition !== undefined);
    return conditions.length === 0
      ? 'no deliveries in the journal'
      : `no deliveries with ${conditions.join(' and ')}`;
  }
  // Money is shown only where prices are set: most journals would show a column of dashes.
  const withCost = records.some((record) => record.agent?.cost !== undefined);
  // The place in the queue only where something is queued: "3rd, about 2 min".
  const withQueue = records.some((record) => standings.has(record.id));
  const header = [
    ...LIST_HEADER,
    ...(withCost ? [COST_HEADER] : []),
    ...(withQueue ? [QUEUE_HEADER] : []),
  ];
  const rows = records.map((record) => {
    const row = deliveryListRow(record, withCost);
    if (withQueue) {
      const standing = record.status === 'queued' ? standings.get(record.id) : undefined;
      row.push(standing ? standingText(standing, now) : '-');
    }
    return row;
  });
  // Ids must stay whole: they are what `deliveries show` and `replay` take.
  return formatTable(header, rows, 72);
}
