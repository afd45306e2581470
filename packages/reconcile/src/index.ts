/**
 * @webhook-gateway/reconcile: closes the loop with the forge's own delivery log. Routes that name
 * their forge hook (`reconcile:`) are read back through `gh api` / `glab api`, the GitHub App's
 * route (`reconcile: { hook: app }`) with the App's JWT; every delivery that
 * never reached the journal and was not answered 2xx is redelivered by the forge, signed as any
 * delivery. The same pass runs in the gateway (`extra.reconcile_interval_s`) and as
 * `webhook-gateway reconcile`.
 */
import { definePlugin, lazyTap } from '@webhook-gateway/core';
import type { ForgeSlices } from './reconcile-pass.js';
import { periodicReconcile, type PeriodicReconcile } from './periodic.js';
import { reconcileConfigProblems, reconcileIntervalMs } from './reconciled-routes.js';

export const RECONCILE_PLUGIN_NAME = '@webhook-gateway/reconcile';
/** Owns `platforms.forge` and `platforms.altforge`, which the pass reads its hook logs with. */
const FORGE_COMMENT_PLUGIN_NAME = '@webhook-gateway/deliver-forge-comment';

/**
 * The plugin. Built in; it does nothing until a route names its hook. The pass's code
 * (`./pass`) is imported at the first pass: a gateway that reconciles nothing never loads it.
 *
 * @example
 * // config.yaml
 * // platforms:
 * //   webhook:
 * //     extra:
 * //       public_url: https://hooks.example.com
 * //       routes:
 * //         reviews: { reconcile: { repo: octo/repo, hook_id: auto } }
 */
export default definePlugin({
  name: RECONCILE_PLUGIN_NAME,
  dependencies: [FORGE_COMMENT_PLUGIN_NAME],
  check: reconcileConfigProblems,
  setup({ hooks, log, config, serving, store, settingsOf, home }) {
    const intervalMs = reconcileIntervalMs(config);
    if (!serving || !store || intervalMs === undefined) return;
    let periodic: PeriodicReconcile | undefined;
    const runReconcilePass = lazyTap(() => import('./reconcile-pass.js'), 'runReconcilePass');
    return {
      serving() {
        periodic = periodicReconcile({
          intervalMs,
          store,
          log,
          runPass: (signal) =>
            runReconcilePass({
              config,
              forges: settingsOf<ForgeSlices>(FORGE_COMMENT_PLUGIN_NAME, config),
              store,
              home,
              window: { fromCursor: true },
              signal,
            }),
          onPass: (result) => hooks.reconciled.call(result),
        });
        periodic.start();
      },
      async stop() {
        await periodic?.stop();
      },
    };
  },
});

export {
  reconciledRoutes,
  appRouteCandidate,
  reconcileIntervalMs,
  reconcileConfigProblems,
  hookUrlOf,
  DEFAULT_RECONCILE_INTERVAL_S,
  type ReconciledRoute,
} from './reconciled-routes.js';
