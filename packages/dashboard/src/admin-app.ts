/**
 * The admin listener's requests: `/metrics` and the `/dashboard` pages, each behind the admin
 * token (`access.ts`: a bearer header, or the session cookie of the login form), and the forms
 * that change something behind a CSRF token as well. This file is the table of paths and the
 * assembly; each page's handler is in `handlers/`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { errorMessage, type GatewayConfig, type Logger, type Store } from '@webhook-gateway/core';
import { createAccessGate } from './access.js';
import { notFound, redirect, sendAsset, sendText } from './answers.js';
import { DASHBOARD_CSS } from './assets/dashboard-css.js';
import { DASHBOARD_JS } from './assets/dashboard-js.js';
import { formBody, UnreadableFormError } from './form-body.js';
import { deliveriesHandlers } from './handlers/deliveries.js';
import { deliveryHandlers } from './handlers/delivery.js';
import type { HandlerDeps } from './handlers/handler-deps.js';
import { loginHandlers } from './handlers/login.js';
import { metricsHandler } from './handlers/metrics.js';
import { notFoundHandler } from './handlers/not-found.js';
import { overviewHandler } from './handlers/overview.js';
import { pauseHandlers } from './handlers/pause.js';
import { queueHandlers } from './handlers/queue.js';
import { replayHandler } from './handlers/replay.js';
import { routesHandler } from './handlers/routes.js';
import type { IgnoredTally } from './ignored-tally.js';
import { BadRequestError } from './inputs.js';
import type { GatewayMetrics } from './metrics.js';
import type { DashboardOptions } from './options.js';
import { securityHeaders } from './security-headers.js';

export interface AdminAppDeps {
  token: string;
  store: Store;
  metrics: GatewayMetrics;
  /** Ignored requests per hour, which the journal does not keep (the overview charts them). */
  ignored: IgnoredTally;
  config: GatewayConfig;
  options: DashboardOptions;
  log: Logger;
  now?: () => number;
}

/** Answers 405 to the methods a known path does not take. */
function methodNotAllowed(allow: string): Middleware {
  return (ctx) => {
    ctx.set('Allow', allow);
    sendText(ctx, 405, 'Method not allowed\n');
  };
}

/** The Koa app of the admin listener, as a request handler of `node:http`. */
export function createAdminApp(
  deps: AdminAppDeps,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  // The token stays with the gate: handlers get the `Access` a request proved.
  const { token, ...parts } = deps;
  const { options, log } = parts;
  const now = parts.now ?? Date.now;
  const gate = createAccessGate({ token, sessionTtlMs: options.session_ttl_h * 3_600_000, now });
  const handlerDeps: HandlerDeps = { ...parts, gate, now, refreshMs: options.refresh_s * 1000 };
  const { withAccess, withDeliveryId } = gate;
  const login = loginHandlers(handlerDeps);
  const deliveries = deliveriesHandlers(handlerDeps);
  const delivery = deliveryHandlers(handlerDeps);
  const pausing = pauseHandlers(handlerDeps);
  const queue = queueHandlers(handlerDeps);

  // Exact paths: `/metrics/` or `/Metrics` is not `/metrics`.
  const router = new Router({ strict: true, sensitive: true });
  const GET = 'GET, HEAD';

  // Public: the assets hold no data, and the login page needs its stylesheet.
  router
    .get('/dashboard/assets/dashboard.css', (ctx) =>
      sendAsset(ctx, 'text/css; charset=utf-8', DASHBOARD_CSS),
    )
    .all('/dashboard/assets/dashboard.css', methodNotAllowed(GET));
  router
    .get('/dashboard/assets/dashboard.js', (ctx) =>
      sendAsset(ctx, 'text/javascript; charset=utf-8', DASHBOARD_JS),
    )
    .all('/dashboard/assets/dashboard.js', methodNotAllowed(GET));
  router
    .get('/dashboard/login', login.show)
    .post('/dashboard/login', formBody, login.logIn)
    .all('/dashboard/login', methodNotAllowed(`${GET}, POST`));
  router.all('/favicon.ico', (ctx) => notFound(ctx));
  router.get('/', (ctx) => redirect(ctx, '/dashboard')).all('/', methodNotAllowed(GET));

  router
    .get('/metrics', withAccess('api', metricsHandler(handlerDeps)))
    .all('/metrics', methodNotAllowed(GET));
  router
    .post('/dashboard/logout', formBody, login.logOut)
    .all('/dashboard/logout', methodNotAllowed('POST'));
  router
    .get(['/dashboard', '/dashboard/'], withAccess('page', deliveries.page))
    .all(['/dashboard', '/dashboard/'], methodNotAllowed(GET));
  router
    .get('/dashboard/queue', withAccess('page', queue.page))
    .all('/dashboard/queue', methodNotAllowed(GET));
  router
    .get('/dashboard/fragments/queue', withAccess('api', queue.tables))
    .all('/dashboard/fragments/queue', methodNotAllowed(GET));
  router
    .get('/dashboard/overview', withAccess('page', overviewHandler(handlerDeps)))
    .all('/dashboard/overview', methodNotAllowed(GET));
  router
    .get('/dashboard/routes', withAccess('page', routesHandler(handlerDeps)))
    .all('/dashboard/routes', methodNotAllowed(GET));
  router
    .post('/dashboard/pause', formBody, withAccess('api', pausing.pause))
    .all('/dashboard/pause', methodNotAllowed('POST'));
  router
    .post('/dashboard/resume', formBody, withAccess('api', pausing.resume))
    .all('/dashboard/resume', methodNotAllowed('POST'));
  router
    .get('/dashboard/fragments/deliveries', withAccess('api', deliveries.rows))
    .all('/dashboard/fragments/deliveries', methodNotAllowed(GET));
  router
    .get('/dashboard/fragments/deliveries/:id', withDeliveryId('api', delivery.liveParts))
    .all('/dashboard/fragments/deliveries/:id', methodNotAllowed(GET));
  router
    .post(
      '/dashboard/deliveries/:id/replay',
      formBody,
      withDeliveryId('api', replayHandler(handlerDeps)),
    )
    .all('/dashboard/deliveries/:id/replay', methodNotAllowed('POST'));
  router
    .get('/dashboard/deliveries/:id', withDeliveryId('page', delivery.page))
    .all('/dashboard/deliveries/:id', methodNotAllowed(GET));

  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  app.use(securityHeaders);
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof UnreadableFormError && error.status === 413) {
        ctx.set('Connection', 'close');
        sendText(ctx, 413, 'Payload too large\n');
      } else if (error instanceof UnreadableFormError) {
        sendText(ctx, error.status, `Bad request: could not read the form: ${error.message}\n`);
      } else if (error instanceof BadRequestError) {
        sendText(ctx, 400, `Bad request: ${error.message}\n`);
      } else {
        log.error({ err: errorMessage(error), path: ctx.path }, 'admin request failed');
        sendText(ctx, 500, 'Internal error\n');
      }
    }
  });
  app.use(router.routes());
  app.use(notFoundHandler(handlerDeps));
  return app.callback();
}
