/**
 * @webhook-gateway/auth-gitea: the Gitea and Forgejo signature scheme (`gitea`), headers
 * `X-Gitea-*` or `X-Forgejo-*`.
 */
import { definePlugin, firstHeader } from '@webhook-gateway/core';
import { verifyGiteaSignature } from './verify.js';

export { signGiteaBody, verifyGiteaSignature } from './verify.js';

export const GITEA_AUTH_PLUGIN_NAME = '@webhook-gateway/auth-gitea';
export const GITEA_SCHEME = 'gitea';

export const GITEA_SIGNATURE_HEADERS = ['x-gitea-signature', 'x-forgejo-signature'] as const;
export const GITEA_EVENT_HEADERS = ['x-gitea-event', 'x-forgejo-event'] as const;
export const GITEA_DELIVERY_HEADERS = ['x-gitea-delivery', 'x-forgejo-delivery'] as const;

export default definePlugin({
  name: GITEA_AUTH_PLUGIN_NAME,
  provides: { schemes: [GITEA_SCHEME] },
  setup({ hooks }) {
    hooks.authenticate.for(GITEA_SCHEME).tapPromise(GITEA_AUTH_PLUGIN_NAME, async (request) => {
      // Forgejo may send both names: each one there must verify, so neither can outvote the other.
      const signatures = GITEA_SIGNATURE_HEADERS.filter(
        (name) => request.headers[name] !== undefined,
      ).map((name) => firstHeader(request.headers, [name]) ?? '');
      if (signatures.length === 0) return undefined;
      const valid = signatures.every((signature) =>
        verifyGiteaSignature(request.rawBody, signature, request.secrets),
      );
      if (!valid) return { ok: false, reason: 'signature does not match' };
      const event = firstHeader(request.headers, GITEA_EVENT_HEADERS);
      const deliveryId = firstHeader(request.headers, GITEA_DELIVERY_HEADERS);
      return {
        ok: true,
        ...(event !== undefined ? { event } : {}),
        ...(deliveryId !== undefined ? { deliveryId } : {}),
      };
    });
  },
});
