/** @webhook-gateway/auth-forge: the forge's HMAC-SHA256 signature (`docs/contract.md#headers`). */
import { definePlugin, firstHeader, FORGE_SIGNATURE_HEADERS } from '@webhook-gateway/core';
import { verifyForgeSignature } from './verify.js';

export { signForgeBody, verifyForgeSignature } from './verify.js';

export const FORGE_AUTH_PLUGIN_NAME = '@webhook-gateway/auth-forge';

export default definePlugin({
  name: FORGE_AUTH_PLUGIN_NAME,
  provides: { schemes: ['forge'] },
  setup({ hooks }) {
    hooks.authenticate.for('forge').tapPromise(FORGE_AUTH_PLUGIN_NAME, async (request) => {
      const signature = firstHeader(request.headers, FORGE_SIGNATURE_HEADERS);
      if (signature === undefined) return undefined;
      return verifyForgeSignature(request.rawBody, signature, request.secrets)
        ? { ok: true }
        : { ok: false, reason: 'signature does not match' };
    });
  },
});
