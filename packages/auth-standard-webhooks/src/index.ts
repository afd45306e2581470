/**
 * @webhook-gateway/auth-standard-webhooks: the Standard Webhooks scheme (`standard-webhooks`),
 * for Svix and the services that send through it. Headers `webhook-*`, or Svix's `svix-*`.
 */
import { definePlugin, firstHeader, type JsonObject } from '@webhook-gateway/core';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { verifyStandardWebhook } from './verify.js';

export {
  signStandardWebhook,
  standardWebhookHeaders,
  standardWebhookKey,
  standardWebhookVerifyKeys,
  verifyStandardWebhook,
  type StandardWebhookHeaders,
} from './verify.js';

export const STANDARD_WEBHOOKS_PLUGIN_NAME = '@webhook-gateway/auth-standard-webhooks';
export const STANDARD_WEBHOOKS_SCHEME = 'standard-webhooks';

/** The spec's header names, then Svix's own. */
const HEADER_SETS = [
  { signature: 'webhook-signature', id: 'webhook-id', timestamp: 'webhook-timestamp' },
  { signature: 'svix-signature', id: 'svix-id', timestamp: 'svix-timestamp' },
] as const;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  return firstHeader(headers, [name]);
}

/** The event type, by the spec's recommendation: the payload's `type`. */
function payloadType(payload: JsonObject): string | undefined {
  return typeof payload.type === 'string' ? payload.type : undefined;
}

const optionsSchema = z.strictObject({
  /** How far `webhook-timestamp` may be from now, either way, in seconds. */
  tolerance_s: z.int().positive().max(86_400).default(300),
});

export default definePlugin({
  name: STANDARD_WEBHOOKS_PLUGIN_NAME,
  provides: { schemes: [STANDARD_WEBHOOKS_SCHEME] },
  options: optionsSchema,
  setup({ hooks }, options: z.output<typeof optionsSchema>) {
    hooks.authenticate
      .for(STANDARD_WEBHOOKS_SCHEME)
      .tapPromise(STANDARD_WEBHOOKS_PLUGIN_NAME, async (request) => {
        // The set whose signature header is there decides; its own id and timestamp go with it.
        const names = HEADER_SETS.find((set) => request.headers[set.signature] !== undefined);
        if (!names) return undefined;
        const id = header(request.headers, names.id);
        const check = verifyStandardWebhook(
          {
            id,
            timestamp: header(request.headers, names.timestamp),
            signature: header(request.headers, names.signature) ?? '',
            body: request.rawBody,
          },
          request.secrets,
          Date.now(),
          options.tolerance_s,
        );
        if (!check.ok) return check;
        return { ok: true, event: payloadType, ...(id !== undefined ? { deliveryId: id } : {}) };
      });
  },
});
