/**
 * @webhook-gateway/auth-bitbucket: the Bitbucket Cloud and Data Center signature scheme
 * (`bitbucket`). A request is Bitbucket's when it carries `X-Hub-Signature` and `X-Event-Key`.
 */
import { definePlugin, firstHeader } from '@webhook-gateway/core';
import { verifyBitbucketSignature } from './verify.js';

export { signBitbucketBody, verifyBitbucketSignature } from './verify.js';

export const BITBUCKET_AUTH_PLUGIN_NAME = '@webhook-gateway/auth-bitbucket';
export const BITBUCKET_SCHEME = 'bitbucket';

/** Cloud sends `X-Request-UUID`, Data Center `X-Request-Id`. */
export const BITBUCKET_DELIVERY_HEADERS = ['x-request-uuid', 'x-request-id'] as const;

export default definePlugin({
  name: BITBUCKET_AUTH_PLUGIN_NAME,
  provides: { schemes: [BITBUCKET_SCHEME] },
  setup({ hooks }) {
    hooks.authenticate
      .for(BITBUCKET_SCHEME)
      .tapPromise(BITBUCKET_AUTH_PLUGIN_NAME, async (request) => {
        // Gitea also sends X-Hub-Signature (sha1=), never X-Event-Key: both together are Bitbucket's.
        const { headers } = request;
        if (headers['x-hub-signature'] === undefined || headers['x-event-key'] === undefined) {
          return undefined;
        }
        const signature = firstHeader(headers, ['x-hub-signature']) ?? '';
        if (!verifyBitbucketSignature(request.rawBody, signature, request.secrets)) {
          return { ok: false, reason: 'signature does not match' };
        }
        const event = firstHeader(headers, ['x-event-key']);
        const deliveryId = firstHeader(headers, BITBUCKET_DELIVERY_HEADERS);
        return {
          ok: true,
          ...(event !== undefined ? { event } : {}),
          ...(deliveryId !== undefined ? { deliveryId } : {}),
        };
      });
  },
});
