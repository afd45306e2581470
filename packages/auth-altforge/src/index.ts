/** @webhook-gateway/auth-altforge: the altforge's plain token (`docs/contract.md#headers`). */
import { ALTFORGE_TOKEN_HEADERS, definePlugin } from '@webhook-gateway/core';
import { verifyAltforgeToken } from './verify.js';

export { verifyAltforgeToken } from './verify.js';

export const ALTFORGE_AUTH_PLUGIN_NAME = '@webhook-gateway/auth-altforge';

export default definePlugin({
  name: ALTFORGE_AUTH_PLUGIN_NAME,
  provides: { schemes: ['altforge'] },
  setup({ hooks }) {
    hooks.authenticate.for('altforge').tapPromise(ALTFORGE_AUTH_PLUGIN_NAME, async (request) => {
      const raw = ALTFORGE_TOKEN_HEADERS.map((name) => request.headers[name]).find(
        (v) => v !== undefined,
      );
      if (raw === undefined) return undefined;
      const token = Array.isArray(raw) ? (raw[0] ?? '') : raw;
      return verifyAltforgeToken(token, request.secrets)
        ? { ok: true }
        : { ok: false, reason: 'token does not match' };
    });
  },
});
