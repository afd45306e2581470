/** @webhook-gateway/auth-linear: Linear's signature scheme (`linear`). */
import { definePlugin, firstHeader, type JsonObject } from '@webhook-gateway/core';
import { z } from 'zod';
import { verifyLinearRequest } from './verify.js';

export { signLinearBody, verifyLinearRequest } from './verify.js';

export const LINEAR_AUTH_PLUGIN_NAME = '@webhook-gateway/auth-linear';
export const LINEAR_SCHEME = 'linear';

/** The payload's `type` (`Issue`, `Comment`), for a request without `Linear-Event`. */
function payloadType(payload: JsonObject): string | undefined {
  return typeof payload.type === 'string' ? payload.type : undefined;
}

const optionsSchema = z.strictObject({
  /** How far `webhookTimestamp` may be from now, either way, in seconds (Linear advises 60). */
  tolerance_s: z.int().positive().max(86_400).default(60),
});

export default definePlugin({
  name: LINEAR_AUTH_PLUGIN_NAME,
  provides: { schemes: [LINEAR_SCHEME] },
  options: optionsSchema,
  setup({ hooks }, options: z.output<typeof optionsSchema>) {
    hooks.authenticate.for(LINEAR_SCHEME).tapPromise(LINEAR_AUTH_PLUGIN_NAME, async (request) => {
      if (request.headers['linear-signature'] === undefined) return undefined;
      const check = verifyLinearRequest(
        request.rawBody,
        firstHeader(request.headers, ['linear-signature']) ?? '',
        request.secrets,
        Date.now(),
        options.tolerance_s,
      );
      if (!check.ok) return check;
      const deliveryId = firstHeader(request.headers, ['linear-delivery']);
      return {
        ok: true,
        event: firstHeader(request.headers, ['linear-event']) ?? payloadType,
        ...(deliveryId !== undefined ? { deliveryId } : {}),
      };
    });
  },
});
