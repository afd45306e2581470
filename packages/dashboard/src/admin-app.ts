/**
 * The admin listener's requests: `/metrics` and the `/dashboard` pages, each behind the admin
 * token (a bearer header, or the session cookie of the login form), and the forms that change
 * something behind a CSRF token as well.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Router, { type RouterContext } from '@koa/router';
import Koa, { type Context, type Middleware } from 'koa';
import { z } from 'zod';
import {
  errorMessage,
  headerBytes,
  type GatewayConfig,
  type Logger,
  type Store,
} from '@webhook-gateway/core';
import { redirect, sendAsset, sendHtml, sendText } from './answers.js';
import { DASHBOARD_CSS } from './assets/dashboard-css.js';
import { DASHBOARD_JS } from './assets/dashboard-js.js';
import {
  bearerToken,
  csrfTokenFor,
  isValidCsrfToken,
  isValidSession,
  issueSession,
  tokensEqual,
} from './auth.js';
import { formBody, UnreadableFormError } from './form-body.js';
import { html } from './html.js';
import {
  csrfFormSchema,
  deliveriesQuerySchema,
  deliveryIdSchema,
  loginFormSchema,
  loginQuerySchema,
  overviewQuerySchema,
  paramsObject,
  safeNextPath,
} from './inputs.js';
import type { IgnoredTally } from './ignored-tally.js';
import type { GatewayMetrics } from './metrics.js';
import type { DashboardOptions } from './options.js';
import { deliveriesPage, deliveryRows } from './pages/deliveries-page.js';
import { deliveryLiveParts, deliveryPage } from './pages/delivery-page.js';
import { overviewOf } from './overview.js';
import { page } from './pages/layout.js';
import { loginPage } from './pages/login-page.js';
import { overviewPage } from './pages/overview-page.js';
import { routesPage } from './pages/routes-page.js';
import { canReplay } from './replay-rule.js';
import { knownRouteNames, routeSummaries } from './route-summaries.js';
import { securityHeaders } from './security-headers.js';
import { clearedSessionCookie, SESSION_COOKIE, sessionCookie } from './session-cookie.js';

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

/** How a request proved it holds the token. */
type Access = { via: 'bearer' } | { via: 'session'; session: string };

/** Who is told what on a request without the token: a page goes to the login form, the rest 401. */
type Asking = 'page' | 'api';

const detailQuerySchema = z.object({ replayed: z.literal('1').optional() });

class BadRequestError extends Error {}

const FORBIDDEN_FORM = 'Forbidden: the form is stale or from another site; reload the page\n';

/** The query string as a plain object (repeated keys: the last wins). */
function queryOf(ctx: Context): Record<string, string> {
  return paramsObject(new URLSearchParams(ctx.querystring));
}

/** A form post from another site carries a foreign Origin; browsers always send one on POST. */
function sameOrigin(ctx: Context): boolean {
  const origin = ctx.headers.origin;
  return origin === undefined || origin === `http://${ctx.headers.host ?? ''}`;
}

/** The `:id` of a path, checked. */
function deliveryIdParam(ctx: RouterContext): string {
  // The router hands a malformed escape on undecoded; `:id` is the path's only part that varies.
  try {
    decodeURIComponent(ctx.path);
  } catch {
    throw new BadRequestError('malformed path');
  }
  const parsed = deliveryIdSchema.safeParse(ctx.params.id);
  if (!parsed.success) throw new BadRequestError('malformed delivery id');
  return parsed.data;
}

function unauthorized(ctx: Context): void {
  ctx.set('WWW-Authenticate', 'Bearer realm="webhook-gateway admin"');
  sendText(ctx, 401, 'Unauthorized: send the admin token as "Authorization: Bearer <token>"\n');
}

/** Pages send a browser to the login form; everything else answers 401. */
function denied(ctx: Context, asking: Asking): void {
  if (asking === 'api') return unauthorized(ctx);
  redirect(ctx, `/dashboard/login?next=${encodeURIComponent(`${ctx.path}${ctx.search}`)}`);
}

function notFound(ctx: Context, what = 'Not found'): void {
  sendText(ctx, 404, `${what}\n`);
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
  const { token, store, metrics, ignored, config, options, log } = deps;
  const now = deps.now ?? Date.now;
  const refreshMs = options.refresh_s * 1000;
  const sessionTtlMs = options.session_ttl_h * 3_600_000;

  function accessOf(ctx: Context): Access | undefined {
    const bearer = bearerToken(ctx.headers.authorization);
    if (bearer !== undefined)
      return tokensEqual(headerBytes(bearer), token) ? { via: 'bearer' } : undefined;
    const session = ctx.cookies.get(SESSION_COOKIE);
    if (session !== undefined && isValidSession(session, token, now(), sessionTtlMs)) {
      return { via: 'session', session };
    }
    return undefined;
  }

  /** The handler of a request that needs the token; `asking` says how one without it is told. */
  function withAccess(
    asking: Asking,
    handle: (ctx: RouterContext, access: Access) => Promise<void> | void,
  ): Middleware<Koa.DefaultState, RouterContext> {
    return async (ctx) => {
      const access = accessOf(ctx);
      if (access) await handle(ctx, access);
      else denied(ctx, asking);
    };
  }

  /** Like `withAccess`, for a path ending in a delivery's id: checked first, token or not. */
  function withDeliveryId(
    asking: Asking,
    handle: (ctx: RouterContext, access: Access, id: string) => Promise<void>,
  ): Middleware<Koa.DefaultState, RouterContext> {
    return async (ctx) => {
      const id = deliveryIdParam(ctx);
      const access = accessOf(ctx);
      if (access) await handle(ctx, access, id);
      else denied(ctx, asking);
    };
  }

  /** The CSRF token pages put in their forms (none for bearer access: no cookie to abuse). */
  function csrfOf(access: Access): { csrf?: string } {
    return access.via === 'session' ? { csrf: csrfTokenFor(access.session, token) } : {};
  }

  /** Checks a state-changing form of a session: same origin and the session's CSRF token. */
  function checkedForm(ctx: Context, access: Access): boolean {
    if (access.via === 'bearer') return true;
    const form = csrfFormSchema.safeParse(ctx.request.body ?? {});
    if (!sameOrigin(ctx) || !form.success) return false;
    return isValidCsrfToken(form.data.csrf, access.session, token);
  }

  function showLogin(ctx: Context): void {
    const next = loginQuerySchema.safeParse(queryOf(ctx));
    sendHtml(
      ctx,
      200,
      loginPage({ next: safeNextPath(next.data?.next), failed: false, refreshMs }),
    );
  }

  function logIn(ctx: Context): void {
    const form = loginFormSchema.safeParse(ctx.request.body ?? {});
    if (!sameOrigin(ctx) || !form.success) {
      sendText(ctx, 400, 'Bad request: expected a login form from this dashboard\n');
      return;
    }
    const next = safeNextPath(form.data.next);
    const remote = ctx.socket.remoteAddress;
    if (!tokensEqual(Buffer.from(form.data.token, 'utf8'), token)) {
      log.warn({ remote }, 'dashboard login with a wrong token');
      sendHtml(ctx, 401, loginPage({ next, failed: true, refreshMs }));
      return;
    }
    log.info({ remote }, 'dashboard login');
    ctx.append('Set-Cookie', sessionCookie(issueSession(token, now()), sessionTtlMs / 1000));
    redirect(ctx, next);
  }

  function logOut(ctx: Context): void {
    const access = accessOf(ctx);
    // Without a live session there is nothing to end; clear the cookie all the same.
    if (access && !checkedForm(ctx, access)) {
      sendText(ctx, 403, FORBIDDEN_FORM);
      return;
    }
    ctx.append('Set-Cookie', clearedSessionCookie());
    redirect(ctx, '/dashboard/login');
  }

  async function showDeliveries(ctx: Context, access: Access, fragment: boolean): Promise<void> {
    const filter = deliveriesQuerySchema.safeParse(queryOf(ctx));
    if (!filter.success) throw new BadRequestError('unknown filter: route or status');
    const records = await store.list({ ...filter.data, limit: options.list_limit });
    if (fragment) {
      sendHtml(ctx, 200, deliveryRows(records));
      return;
    }
    sendHtml(
      ctx,
      200,
      deliveriesPage({
        records,
        filter: filter.data,
        routeNames: await knownRouteNames(config, store),
        limit: options.list_limit,
        refreshMs,
        ...csrfOf(access),
      }),
    );
  }

  async function showDelivery(ctx: Context, access: Access, id: string, fragment: boolean) {
    const record = await store.get(id);
    if (!record) {
      notFound(ctx, `No delivery ${id} in the journal (pruned, or never received)`);
      return;
    }
    if (fragment) {
      sendHtml(ctx, 200, deliveryLiveParts(record, csrfOf(access).csrf));
      return;
    }
    const query = detailQuerySchema.safeParse(queryOf(ctx));
    sendHtml(
      ctx,
      200,
      deliveryPage({
        record,
        replayed: query.success && query.data.replayed === '1',
        refreshMs,
        ...csrfOf(access),
      }),
    );
  }

  async function replay(ctx: Context, access: Access, id: string): Promise<void> {
    if (!checkedForm(ctx, access)) {
      sendText(ctx, 403, FORBIDDEN_FORM);
      return;
    }
    const current = await store.get(id);
    if (current && !canReplay(current)) {
      sendText(
        ctx,
        409,
        `Delivery ${current.deliveryId} is ${current.status}; replay it once it has finished\n`,
      );
      return;
    }
    const record = current ? await store.replay(current.id, now()) : undefined;
    if (!record) {
      notFound(ctx, `No delivery ${id} in the journal (pruned, or never received)`);
      return;
    }
    log.info(
      { route: record.route, delivery_id: record.deliveryId, via: access.via },
      'replay requested from the dashboard',
    );
    redirect(ctx, `/dashboard/deliveries/${encodeURIComponent(record.id)}?replayed=1`);
  }

  async function showRoutes(ctx: Context, access: Access): Promise<void> {
    const summary = await routeSummaries(config, store, {
      now: now(),
      scanLimit: options.counts_scan_limit,
    });
    sendHtml(
      ctx,
      200,
      routesPage({
        ...summary,
        reconcile: metrics.lastReconcile,
        scanLimit: options.counts_scan_limit,
        refreshMs,
        ...csrfOf(access),
      }),
    );
  }

  async function showOverview(ctx: Context, access: Access): Promise<void> {
    const query = overviewQuerySchema.safeParse(queryOf(ctx));
    if (!query.success) throw new BadRequestError('unknown window: 24h or 7d');
    const overview = await overviewOf(store, {
      now: now(),
      window: query.data.window,
      scanLimit: options.charts_scan_limit,
      ignoredByHour: ignored.perHour(),
    });
    sendHtml(
      ctx,
      200,
      overviewPage({
        overview,
        scanLimit: options.charts_scan_limit,
        refreshMs,
        ...csrfOf(access),
      }),
    );
  }

  async function showMetrics(ctx: Context): Promise<void> {
    const text = await metrics.registry.metrics();
    sendText(ctx, 200, text, metrics.registry.contentType);
  }

  /** A path the listener does not serve: a 404 page for who holds the token. */
  function unknownPath(ctx: Context): void {
    const access = accessOf(ctx);
    if (!access) return denied(ctx, ctx.path.startsWith('/dashboard') ? 'page' : 'api');
    sendHtml(
      ctx,
      404,
      page(
        { title: 'Not found', section: 'deliveries', refreshMs, ...csrfOf(access) },
        html`<h1>Not found</h1>
          <p><a href="/dashboard">Back to the deliveries</a></p>`,
      ),
    );
  }

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
    .get('/dashboard/login', showLogin)
    .post('/dashboard/login', formBody, logIn)
    .all('/dashboard/login', methodNotAllowed(`${GET}, POST`));
  router.all('/favicon.ico', (ctx) => notFound(ctx));
  router.get('/', (ctx) => redirect(ctx, '/dashboard')).all('/', methodNotAllowed(GET));

  router.get('/metrics', withAccess('api', showMetrics)).all('/metrics', methodNotAllowed(GET));
  router
    .post('/dashboard/logout', formBody, logOut)
    .all('/dashboard/logout', methodNotAllowed('POST'));
  router
    .get(
      ['/dashboard', '/dashboard/'],
      withAccess('page', (ctx, access) => showDeliveries(ctx, access, false)),
    )
    .all(['/dashboard', '/dashboard/'], methodNotAllowed(GET));
  router
    .get('/dashboard/overview', withAccess('page', showOverview))
    .all('/dashboard/overview', methodNotAllowed(GET));
  router
    .get('/dashboard/routes', withAccess('page', showRoutes))
    .all('/dashboard/routes', methodNotAllowed(GET));
  router
    .get(
      '/dashboard/fragments/deliveries',
      withAccess('api', (ctx, access) => showDeliveries(ctx, access, true)),
    )
    .all('/dashboard/fragments/deliveries', methodNotAllowed(GET));
  router
    .get(
      '/dashboard/fragments/deliveries/:id',
      withDeliveryId('api', (ctx, access, id) => showDelivery(ctx, access, id, true)),
    )
    .all('/dashboard/fragments/deliveries/:id', methodNotAllowed(GET));
  router
    .post('/dashboard/deliveries/:id/replay', formBody, withDeliveryId('api', replay))
    .all('/dashboard/deliveries/:id/replay', methodNotAllowed('POST'));
  router
    .get(
      '/dashboard/deliveries/:id',
      withDeliveryId('page', (ctx, access, id) => showDelivery(ctx, access, id, false)),
    )
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
  app.use(unknownPath);
  return app.callback();
}
