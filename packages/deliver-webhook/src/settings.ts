/** `platforms.webhook_target`: the endpoints the `webhook` target posts answers to. */
import { outboundUrlSchema, standardWebhookSecretSchema } from '@webhook-gateway/core';
import { z } from 'zod';

/** One endpoint: where answers go and the secret they are signed with. */
const endpointSchema = z.strictObject({
  url: outboundUrlSchema,
  secret: standardWebhookSecretSchema,
});

/** The schema of `platforms.webhook_target`; a route names an endpoint in `deliver_extra.endpoint`. */
export const webhookTargetSettingsSchema = z
  .strictObject({
    endpoints: z
      .record(
        z.string().regex(/^[A-Za-z0-9_-]+$/, 'an endpoint name: letters, digits, _ and -'),
        endpointSchema,
      )
      .default({}),
  })
  .prefault({});

/** `platforms.webhook_target` validated, defaults filled in. */
export type WebhookTargetSettings = z.output<typeof webhookTargetSettingsSchema>;
