/** What core itself taps: the routing rules on `filter`, and the `log` target. */
import { MemoryStore } from './memory-store.js';
import { definePlugin } from './plugin.js';
import { routeIgnoreReason } from './route-filter.js';

export const CORE_PLUGIN_NAME = '@webhook-gateway/core';

export const corePlugin = definePlugin({
  name: CORE_PLUGIN_NAME,
  provides: { targets: ['log'], stores: ['memory'] },
  // Nothing kept on disk: for tests, and a gateway that may lose its journal.
  stores: { memory: async () => new MemoryStore() },
  setup({ hooks }) {
    hooks.filter.tapPromise(CORE_PLUGIN_NAME, (request) => {
      const reason = routeIgnoreReason(
        request.routeConfig,
        request.event,
        request.action,
        request.payload,
      );
      return Promise.resolve(reason ? { reason } : undefined);
    });

    // The answer goes to the gateway log, even when it is empty or SKIP.
    hooks.deliver.for('log').tapPromise(CORE_PLUGIN_NAME, (request) => {
      request.log.info({ target: 'log', answer: request.answer }, 'agent answer');
      return Promise.resolve();
    });
  },
});
