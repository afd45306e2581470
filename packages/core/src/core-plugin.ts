/**
 * What core itself taps: the routing rules on `filter`, the route budget on `admit`, and the
 * `log` target; it also provides the `memory` store.
 */
import { FILTER_REGEX_TIMEOUT_MS } from './filter-regex-limit.js';
import { inFilePaths } from './filter-verdict.js';
import { InFileLists } from './in-file-lists.js';
import { MemoryStore } from './memory-store.js';
import { definePlugin } from './plugin.js';
import { budgetRefusal, utcDayStart } from './route-budget.js';
import { routeVerdict } from './route-filter.js';

const CORE_PLUGIN_NAME = '@webhook-gateway/core';

export const corePlugin = definePlugin({
  name: CORE_PLUGIN_NAME,
  provides: { targets: ['log'], stores: ['memory'] },
  // Nothing kept on disk: for tests, and a gateway that may lose its journal.
  stores: { memory: async () => new MemoryStore() },
  setup({ hooks, store, log, home }) {
    const inFileLists = new InFileLists(home, (file, reason) => {
      log.warn({ file, reason }, 'an in_file filter list cannot be read; it matches nothing');
    });
    hooks.filter.tapPromise(CORE_PLUGIN_NAME, async (request) => {
      const files = inFilePaths(request.routeConfig.filters);
      if (files.length > 0) await inFileLists.refresh(files);
      const { reason, filters } = routeVerdict(request.routeConfig, request, (file) =>
        inFileLists.values(file),
      );
      // Keys and field names only: the payload's text stays out of the log.
      if (filters && filters.timedOut.length > 0) {
        log.warn(
          {
            route: request.route,
            filter: filters.timedOut.map((stopped) => stopped.key).join(', '),
            field: filters.timedOut.map((stopped) => stopped.field).join(', '),
            limit_ms: FILTER_REGEX_TIMEOUT_MS,
          },
          'a filter regex did not finish within its time limit; it counts as not matching, so the route ignores the delivery',
        );
      }
      return reason ? { reason } : undefined;
    });

    // A route's daily budget, before the agent runs: past it, the delivery ends over_budget.
    const warned = new Map<string, number>();
    hooks.admit.tapPromise(CORE_PLUGIN_NAME, async (request) => {
      if (!store || !request.routeConfig.budget) return undefined;
      const now = Date.now();
      const refusal = await budgetRefusal(store, request.delivery, request.routeConfig.budget, now);
      // Once per route per UTC day: every later delivery of the day is refused quietly.
      if (refusal && warned.get(request.delivery.route) !== utcDayStart(now)) {
        warned.set(request.delivery.route, utcDayStart(now));
        log.warn({ route: request.delivery.route, reason: refusal.reason }, 'route over budget');
      }
      return refusal;
    });

    // The answer goes to the gateway log, even when it is empty or SKIP.
    hooks.deliver.for('log').tapPromise(CORE_PLUGIN_NAME, (request) => {
      request.log.info({ target: 'log', answer: request.answer }, 'agent answer');
      return Promise.resolve();
    });
  },
});
