/** The plugin's options (`plugins: [{ name: '@webhook-gateway/deliver-webhook', options }]`). */
import { z } from 'zod';

export const webhookOptionsSchema = z.strictObject({
  /** How long one POST may take before it counts as failed (and is retried). */
  request_timeout_s: z.number().positive().max(300).default(10),
  /** POSTs in flight at once, over every receiver. */
  concurrency: z.int().positive().max(64).default(8),
  /** How often the outbox is read when nothing woke the sender (other gateways' events, retries). */
  poll_interval_ms: z.int().min(50).max(60_000).default(1000),
  /** The first retry's delay; each next one doubles, up to `retry_max_s`, with jitter. */
  retry_base_ms: z.int().min(10).max(600_000).default(1000),
  retry_max_s: z.number().positive().max(3600).default(300),
});

export type WebhookOptions = z.output<typeof webhookOptionsSchema>;
