/** When the dashboard offers a replay. */
import { isFinishedStatus, type DeliveryRecord } from '@webhook-gateway/core';

/**
 * Only a finished delivery is replayed: requeueing one that is queued or running would race
 * the attempt in progress, whose outcome would then overwrite the replay's.
 */
export function canReplay(record: Pick<DeliveryRecord, 'status'>): boolean {
  return isFinishedStatus(record.status);
}
