/**
 * @webhook-gateway/auth-generic: plain shared-secret senders (`generic`): a timestamped HMAC in
 * `X-Webhook-Signature-V2`, else `Authorization: Bearer <secret>`. A V1 `X-Webhook-Signature`
 * beside the token must match too: a wrong signature is never excused by a right token.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { definePlugin, firstHeader, type AuthVerdict } from '@webhook-gateway/core';
import { z } from 'zod';
import { verifyBearerToken, verifyGenericV1, verifyGenericV2 } from './verify.js';

export { signGenericV2, verifyBearerToken, verifyGenericV1, verifyGenericV2 } from './verify.js';

export const GENERIC_AUTH_PLUGIN_NAME = '@webhook-gateway/auth-generic';
export const GENERIC_SCHEME = 'generic';

const BEARER = /^Bearer (.*)$/i;

const optionsSchema = z.strictObject({
  /** How far `X-Webhook-Timestamp` may be from now, either way, in seconds. */
  tolerance_s: z.int().positive().max(86_400).default(300),
});

/** Which of the two this request uses: V2 whenever its header is there, else a Bearer token. */
function credentialsOf(
  headers: IncomingHttpHeaders,
): { kind: 'v2'; signature: string } | { kind: 'bearer'; token: string } | undefined {
  if (headers['x-webhook-signature-v2'] !== undefined) {
    return { kind: 'v2', signature: firstHeader(headers, ['x-webhook-signature-v2']) ?? '' };
  }
  const authorization = firstHeader(headers, ['authorization']);
  const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  return token === undefined ? undefined : { kind: 'bearer', token: token.trim() };
}

export default definePlugin({
  name: GENERIC_AUTH_PLUGIN_NAME,
  provides: { schemes: [GENERIC_SCHEME] },
  options: optionsSchema,
  setup({ hooks }, options: z.output<typeof optionsSchema>) {
    hooks.authenticate
      .for(GENERIC_SCHEME)
      .tapPromise(GENERIC_AUTH_PLUGIN_NAME, async (request): Promise<AuthVerdict | undefined> => {
        const credentials = credentialsOf(request.headers);
        const v1 = firstHeader(request.headers, ['x-webhook-signature']);
        if (
          credentials?.kind !== 'v2' &&
          v1 !== undefined &&
          !verifyGenericV1(request.rawBody, v1, request.secrets)
        ) {
          return { ok: false, reason: 'X-Webhook-Signature does not match' };
        }
        if (!credentials) return undefined;
        if (credentials.kind === 'v2') {
          const check = verifyGenericV2(
            request.rawBody,
            credentials.signature,
            firstHeader(request.headers, ['x-webhook-timestamp']),
            request.secrets,
            Date.now(),
            options.tolerance_s,
          );
          if (!check.ok) return check;
        } else if (!verifyBearerToken(credentials.token, request.secrets)) {
          return { ok: false, reason: 'Bearer token does not match', credentialOnly: true };
        }
        const deliveryId = firstHeader(request.headers, ['x-request-id']);
        return {
          ok: true,
          event: firstHeader(request.headers, ['x-webhook-event']) ?? request.route,
          ...(deliveryId !== undefined ? { deliveryId } : {}),
        };
      });
  },
});
