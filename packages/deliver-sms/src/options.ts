/** The plugin's options (`plugins: [{ name: '@webhook-gateway/deliver-sms', options: … }]`). */
import { z } from 'zod';

export const smsOptionsSchema = z.strictObject({
  /** How long one HTTP call to Twilio may take. */
  request_timeout_s: z.number().positive().default(30),
  /** How long the start-time credential check may take for Twilio. */
  check_timeout_s: z.number().positive().default(10),
  /** How many times one text is retried after a 429 before the delivery fails. */
  rate_limit_retries: z.int().min(0).max(20).default(3),
  /** The longest wait honoured after a 429; a longer stated delay is shortened to this. */
  max_retry_after_s: z.number().positive().default(60),
});

export type SmsOptions = z.infer<typeof smsOptionsSchema>;
