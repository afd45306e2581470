/**
 * `@webhook-gateway/reconcile/pass`: one reconcile pass, for `webhook-gateway reconcile` and
 * programs of their own. Apart from the package's entry, so that loading the plugin does not load
 * the pass's code (the forge's hook logs, their parsing): the plugin imports it at its first pass.
 */
export {
  runReconcilePass,
  FORGE_RETENTION_MS,
  ALTFORGE_RETENTION_MS,
  FIRST_PASS_MS,
  CURSOR_OVERLAP_MS,
  type ForgeSlices,
  type PassOptions,
  type PassResult,
  type PassWindow,
} from './reconcile-pass.js';
export type { RouteReconcileResult } from './reconcile-route.js';
export { ReconcileFailure, type ReconcileFailureKind } from './failures.js';
