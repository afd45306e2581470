/** The plugin's options (`plugins: [{ name: '@webhook-gateway/dashboard', options: … }]`). */
import { z } from 'zod';

export const dashboardOptionsSchema = z.strictObject({
  /** How many deliveries the table shows (newest first). */
  list_limit: z.int().min(1).max(1000).default(100),
  /**
   * How many of the newest journal rows the routes page reads to count the last 24 h. Rows
   * carry their payloads, so this bounds the memory one page view takes.
   */
  counts_scan_limit: z.int().min(10).max(100_000).default(1000),
  /**
   * How many journal rows the overview's charts read at most. They read outlines (status,
   * times, attempts, tokens; no payload), so this can be much larger than `counts_scan_limit`.
   */
  charts_scan_limit: z.int().min(10).max(1_000_000).default(20_000),
  /** How often the deliveries table, the queue page and a delivery's page refresh themselves. */
  refresh_s: z.number().min(1).max(300).default(3),
  /** How long a login lasts. */
  session_ttl_h: z.number().positive().max(720).default(12),
});

export type DashboardOptions = z.infer<typeof dashboardOptionsSchema>;
