/** The options every target that calls an HTTP service takes (`plugins: [{ name, options }]`). */
import { z } from 'zod';

export const httpTargetOptionsSchema = z.strictObject({
  /** How long one HTTP call to the service may take. */
  request_timeout_s: z.number().positive().default(30),
  /** How long the start-time credential check may take per platform. */
  check_timeout_s: z.number().positive().default(10),
  /** How many times one message is retried after a 429 before the delivery fails. */
  rate_limit_retries: z.int().min(0).max(20).default(3),
  /** The longest wait honoured after a 429; a longer stated delay is shortened to this. */
  max_retry_after_s: z.number().positive().default(60),
});

export type HttpTargetOptions = z.infer<typeof httpTargetOptionsSchema>;
