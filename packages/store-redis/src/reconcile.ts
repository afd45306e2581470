/**
 * The safety net between the journal and BullMQ. A receiver journals a delivery and then adds its
 * job; if it dies in between (or Redis refused the add), the row is queued with no job. Workers
 * sweep now and then: every queued or running row whose job is gone (or ended in BullMQ's failed
 * or completed set) gets its job again. Adding is idempotent (the job id is `<id>.<seq>`), and a
 * worker skips a job whose row has finished, so a sweep racing a live job does no harm.
 */
import { jobIdOf, type JobProducer } from './jobs.js';

/** What the sweep needs from the store. */
export interface SweepSource {
  /** Queued and running rows, `{ id, seq }`. */
  unfinished(): Promise<{ id: string; seq: number }[]>;
  /** The row's current seq and schedule, or undefined when it is gone or finished. */
  schedule(
    id: string,
  ): Promise<{ id: string; seq: number; maxAttempts: number; nextAttemptAt: number } | undefined>;
}

const BATCH = 500;

/** Gives every unfinished row without a live job a new one; returns how many were added. */
export async function addMissingJobs(
  source: SweepSource,
  jobs: JobProducer,
  now: number,
): Promise<number> {
  const rows = await source.unfinished();
  let added = 0;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const jobIds = batch.map((row) => jobIdOf(row.id, row.seq));
    const liveness = await jobs.liveness(jobIds);
    const results = await Promise.all(
      batch.map(async (row, index) => {
        const state = liveness[index];
        if (state === 'live') return false;
        const jobId = jobIds[index] ?? jobIdOf(row.id, row.seq);
        if (state === 'finished') await jobs.remove(jobId);
        const schedule = await source.schedule(row.id);
        if (!schedule || schedule.seq !== row.seq) return false;
        await jobs.add(schedule, { delayMs: schedule.nextAttemptAt - now });
        return true;
      }),
    );
    added += results.filter(Boolean).length;
  }
  return added;
}
