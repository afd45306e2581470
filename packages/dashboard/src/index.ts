/**
 * @webhook-gateway/dashboard: Prometheus metrics and the deliveries dashboard, served on a
 * separate admin listener (`platforms.webhook.extra.admin`) behind the admin token.
 */
import { ConfigError, definePlugin, errorMessage, type Logger } from '@webhook-gateway/core';
import type { AdminServer } from './admin-server.js';
import { adminSettingsProblems } from './admin-settings.js';
import { dashboardOptionsSchema } from './options.js';

export {
  adminSettingsProblems,
  MIN_ADMIN_TOKEN_LENGTH,
  type AdminSettings,
} from './admin-settings.js';
// Types only: the metrics and the admin app (prom-client, Koa's body parser, the pages) are
// loaded in `setup`, and only when `extra.admin` is set.
export type { GatewayMetrics } from './metrics.js';
export { dashboardOptionsSchema, type DashboardOptions } from './options.js';

export const DASHBOARD_PLUGIN_NAME = '@webhook-gateway/dashboard';

/** Observation taps must not throw (hooks.ts): a metrics bug must never fail a request. */
function guarded(log: Logger, what: string, observe: () => void): void {
  try {
    observe();
  } catch (error) {
    log.error({ err: errorMessage(error) }, `could not record ${what} in the metrics`);
  }
}

/**
 * The plugin. Built in; it does nothing until `platforms.webhook.extra.admin` is set.
 *
 * @example
 * // config.yaml
 * // platforms:
 * //   webhook:
 * //     extra:
 * //       admin: { host: 127.0.0.1, port: 8645, token: "${WEBHOOK_ADMIN_TOKEN}" }
 */
export default definePlugin({
  name: DASHBOARD_PLUGIN_NAME,
  options: dashboardOptionsSchema,
  async setup({ hooks, log, config, serving, store, queue }, options) {
    const admin = config.platforms.webhook.extra.admin;
    if (!admin || !serving || !store || !queue) return;
    const problems = adminSettingsProblems(admin);
    if (problems.length > 0) throw new ConfigError(problems);
    const [{ createGatewayMetrics }, { createAdminApp }, { listenAdmin }, { IgnoredTally }] =
      await Promise.all([
        import('./metrics.js'),
        import('./admin-app.js'),
        import('./admin-server.js'),
        import('./ignored-tally.js'),
      ]);
    // Checked above; a const keeps the narrowing inside the closures.
    const token = admin.token ?? '';

    const metrics = createGatewayMetrics({
      queue,
      configuredRoutes: Object.keys(config.platforms.webhook.extra.routes),
      pauses: () => store.pauses(),
    });
    const ignored = new IgnoredTally();
    hooks.requestHandled.tap(DASHBOARD_PLUGIN_NAME, (event) =>
      guarded(log, 'a request', () => {
        metrics.observeRequest(event);
        if (event.outcome === 'ignored') ignored.add(Date.now());
      }),
    );
    hooks.attemptFinished.tap(DASHBOARD_PLUGIN_NAME, (event) =>
      guarded(log, 'an attempt', () => metrics.observeAttempt(event)),
    );
    hooks.reconciled.tap(DASHBOARD_PLUGIN_NAME, (event) =>
      guarded(log, 'a reconcile pass', () => metrics.observeReconcile(event)),
    );
    hooks.findingsReviewed.tap(DASHBOARD_PLUGIN_NAME, (event) =>
      guarded(log, "a review's findings", () => metrics.observeFindings(event)),
    );
    hooks.spansDropped.tap(DASHBOARD_PLUGIN_NAME, (event) =>
      guarded(log, 'dropped trace spans', () => metrics.observeSpansDropped(event)),
    );
    const app = createAdminApp({ token, store, metrics, ignored, config, options, log });

    let server: AdminServer | undefined;
    return {
      async start() {
        server = await listenAdmin(admin, app);
        log.info({ host: server.host, port: server.port }, 'admin listening');
      },
      async stop() {
        await server?.close();
        server = undefined;
      },
    };
  },
});
