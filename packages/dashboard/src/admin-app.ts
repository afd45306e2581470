/**
 * The admin listener's requests: `/metrics` and the `/dashboard` pages, each behind the admin
 * token (a bearer header, or the session cookie of the login form), and the forms that change
 * something behind a CSRF token as well.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  errorMessage,
  headerBytes,
  type GatewayConfig,
  type Logger,
  type Store,
} from '@webhook-gateway/core';
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
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from './cookies.js';
import { html } from './html.js';
import { FormTooLargeError, readForm, redirect, sendAsset, sendHtml, sendText } from './http-io.js';
import {
  csrfFormSchema,
  deliveriesQuerySchema,
  deliveryIdSchema,
  loginFormSchema,
  loginQuerySchema,
  paramsObject,
  safeNextPath,
} from './inputs.js';
import type { GatewayMetrics } from './metrics.js';
import type { DashboardOptions } from './options.js';
import { deliveriesPage, deliveryRows } from './pages/deliveries-page.js';
import { deliveryLiveParts, deliveryPage } from './pages/delivery-page.js';
import { page } from './pages/layout.js';
import { loginPage } from './pages/login-page.js';
import { routesPage } from './pages/routes-page.js';
import { canReplay } from './replay-rule.js';
import { knownRouteNames, routeSummaries } from './route-summaries.js';

export interface AdminAppDeps {
  token: string;
  store: Store;
  metrics: GatewayMetrics;
  config: GatewayConfig;
  options: DashboardOptions;
  log: Logger;
  now?: () => number;
}

/** How a request proved it holds the token. */
type Access = { via: 'bearer' } | { via: 'session'; session: string };

interface AdminRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  access: Access | undefined;
}

const detailQuerySchema = z.object({ replayed: z.literal('1').optional() });

class BadRequestError extends Error {}

/** The request handler of the admin listener. */
export function createAdminApp(
  deps: AdminAppDeps,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { token, store, metrics, config, options, log } = deps;
  const now = deps.now ?? Date.now;
  const refreshMs = options.refresh_s * 1000;
  const sessionTtlMs = options.session_ttl_h * 3_600_000;

  function accessOf(req: IncomingMessage): Access | undefined {
    const bearer = bearerToken(req.headers.authorization);
    if (bearer !== undefined)
      return tokensEqual(headerBytes(bearer), token) ? { via: 'bearer' } : undefined;
    const session = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (session !== undefined && isValidSession(session, token, now(), sessionTtlMs)) {
      return { via: 'session', session };
    }
    return undefined;
  }

  /** The CSRF token pages put in their forms (none for bearer access: no cookie to abuse). */
  function csrfOf(access: Access): { csrf?: string } {
    return access.via === 'session' ? { csrf: csrfTokenFor(access.session, token) } : {};
  }

  /** A form post from another site carries a foreign Origin; browsers always send one on POST. */
  function sameOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    return origin === undefined || origin === `http://${req.headers.host ?? ''}`;
  }

  function unauthorized(res: ServerResponse): void {
    sendText(res, 401, 'Unauthorized: send the admin token as "Authorization: Bearer <token>"\n', {
      'WWW-Authenticate': 'Bearer realm="webhook-gateway admin"',
    });
  }

  function notFound(res: ServerResponse, what = 'Not found'): void {
    sendText(res, 404, `${what}\n`);
  }

  /** Checks a state-changing form of a session: same origin and the session's CSRF token. */
  async function checkedForm(request: AdminRequest, access: Access): Promise<boolean> {
    const form = csrfFormSchema.safeParse(paramsObject(await readForm(request.req)));
    if (access.via === 'bearer') return true;
    if (!sameOrigin(request.req) || !form.success) return false;
    return isValidCsrfToken(form.data.csrf, access.session, token);
  }

  function pathParam(encoded: string): string {
    let decoded: string;
    try {
      decoded = decodeURIComponent(encoded);
    } catch {
      throw new BadRequestError('malformed path');
    }
    const parsed = deliveryIdSchema.safeParse(decoded);
    if (!parsed.success) throw new BadRequestError('malformed delivery id');
    return parsed.data;
  }

  async function showLogin(request: AdminRequest): Promise<void> {
    const next = loginQuerySchema.safeParse(paramsObject(request.url.searchParams));
    sendHtml(
      request.res,
      200,
      loginPage({ next: safeNextPath(next.data?.next), failed: false, refreshMs }),
    );
  }

  async function logIn(request: AdminRequest): Promise<void> {
    const { req, res } = request;
    const form = loginFormSchema.safeParse(paramsObject(await readForm(req)));
    if (!sameOrigin(req) || !form.success) {
      sendText(res, 400, 'Bad request: expected a login form from this dashboard\n');
      return;
    }
    const next = safeNextPath(form.data.next);
    if (!tokensEqual(Buffer.from(form.data.token, 'utf8'), token)) {
      log.warn({ remote: req.socket.remoteAddress }, 'dashboard login with a wrong token');
      sendHtml(res, 401, loginPage({ next, failed: true, refreshMs }));
      return;
    }
    log.info({ remote: req.socket.remoteAddress }, 'dashboard login');
    redirect(res, next, sessionCookie(issueSession(token, now()), sessionTtlMs / 1000));
  }

  async function logOut(request: AdminRequest, access: Access): Promise<void> {
    if (!(await checkedForm(request, access))) {
      sendText(
        request.res,
        403,
        'Forbidden: the form is stale or from another site; reload the page\n',
      );
      return;
    }
    redirect(request.res, '/dashboard/login', clearedSessionCookie());
  }

  async function showDeliveries(request: AdminRequest, access: Access, fragment: boolean) {
    const filter = deliveriesQuerySchema.safeParse(paramsObject(request.url.searchParams));
    if (!filter.success) throw new BadRequestError('unknown filter: route or status');
    const records = await store.list({ ...filter.data, limit: options.list_limit });
    if (fragment) {
      sendHtml(request.res, 200, deliveryRows(records));
      return;
    }
    sendHtml(
      request.res,
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

  async function showDelivery(
    request: AdminRequest,
    access: Access,
    id: string,
    fragment: boolean,
  ) {
    const record = await store.get(id);
    if (!record) {
      notFound(request.res, `No delivery ${id} in the journal (pruned, or never received)`);
      return;
    }
    if (fragment) {
      sendHtml(request.res, 200, deliveryLiveParts(record, csrfOf(access).csrf));
      return;
    }
    const query = detailQuerySchema.safeParse(paramsObject(request.url.searchParams));
    sendHtml(
      request.res,
      200,
      deliveryPage({
        record,
        replayed: query.success && query.data.replayed === '1',
        refreshMs,
        ...csrfOf(access),
      }),
    );
  }

  async function replay(request: AdminRequest, access: Access, id: string): Promise<void> {
    if (!(await checkedForm(request, access))) {
      sendText(
        request.res,
        403,
        'Forbidden: the form is stale or from another site; reload the page\n',
      );
      return;
    }
    const current = await store.get(id);
    if (current && !canReplay(current)) {
      sendText(
        request.res,
        409,
        `Delivery ${current.deliveryId} is ${current.status}; replay it once it has finished\n`,
      );
      return;
    }
    const record = current ? await store.replay(current.id, now()) : undefined;
    if (!record) {
      notFound(request.res, `No delivery ${id} in the journal (pruned, or never received)`);
      return;
    }
    log.info(
      { route: record.route, delivery_id: record.deliveryId, via: access.via },
      'replay requested from the dashboard',
    );
    redirect(request.res, `/dashboard/deliveries/${encodeURIComponent(record.id)}?replayed=1`);
  }

  async function showRoutes(request: AdminRequest, access: Access): Promise<void> {
    const summary = await routeSummaries(config, store, {
      now: now(),
      scanLimit: options.counts_scan_limit,
    });
    sendHtml(
      request.res,
      200,
      routesPage({
        ...summary,
        scanLimit: options.counts_scan_limit,
        refreshMs,
        ...csrfOf(access),
      }),
    );
  }

  async function showMetrics(request: AdminRequest): Promise<void> {
    const text = await metrics.registry.metrics();
    sendText(request.res, 200, text, { 'Content-Type': metrics.registry.contentType });
  }

  /** Pages send a browser to the login form; everything else answers 401. */
  function denied(request: AdminRequest, isPage: boolean): void {
    if (!isPage) return unauthorized(request.res);
    const next = `${request.url.pathname}${request.url.search}`;
    redirect(request.res, `/dashboard/login?next=${encodeURIComponent(next)}`);
  }

  async function route(request: AdminRequest): Promise<void> {
    const { req, res, url, access } = request;
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const path = url.pathname;
    const only = (allowed: string) => {
      if (method === allowed) return true;
      sendText(res, 405, 'Method not allowed\n', {
        Allow: allowed === 'GET' ? 'GET, HEAD' : allowed,
      });
      return false;
    };

    // Public: the assets hold no data, and the login page needs its stylesheet.
    if (path === '/dashboard/assets/dashboard.css') {
      if (only('GET')) sendAsset(res, 'text/css; charset=utf-8', DASHBOARD_CSS);
      return;
    }
    if (path === '/dashboard/assets/dashboard.js') {
      if (only('GET')) sendAsset(res, 'text/javascript; charset=utf-8', DASHBOARD_JS);
      return;
    }
    if (path === '/dashboard/login') {
      if (method === 'POST') return logIn(request);
      if (only('GET')) return showLogin(request);
      return;
    }
    if (path === '/favicon.ico') {
      sendText(res, 404, 'Not found\n');
      return;
    }
    if (path === '/') {
      if (only('GET')) redirect(res, '/dashboard');
      return;
    }

    if (path === '/metrics') {
      if (!only('GET')) return;
      return access ? showMetrics(request) : unauthorized(res);
    }
    if (path === '/dashboard/logout') {
      if (!only('POST')) return;
      // Without a live session there is nothing to end; clear the cookie all the same.
      if (!access) return redirect(res, '/dashboard/login', clearedSessionCookie());
      return logOut(request, access);
    }
    if (path === '/dashboard' || path === '/dashboard/') {
      if (!only('GET')) return;
      return access ? showDeliveries(request, access, false) : denied(request, true);
    }
    if (path === '/dashboard/routes') {
      if (!only('GET')) return;
      return access ? showRoutes(request, access) : denied(request, true);
    }
    if (path === '/dashboard/fragments/deliveries') {
      if (!only('GET')) return;
      return access ? showDeliveries(request, access, true) : denied(request, false);
    }
    const fragment = /^\/dashboard\/fragments\/deliveries\/([^/]+)$/.exec(path);
    if (fragment?.[1] !== undefined) {
      if (!only('GET')) return;
      const id = pathParam(fragment[1]);
      return access ? showDelivery(request, access, id, true) : denied(request, false);
    }
    const replayMatch = /^\/dashboard\/deliveries\/([^/]+)\/replay$/.exec(path);
    if (replayMatch?.[1] !== undefined) {
      if (!only('POST')) return;
      const id = pathParam(replayMatch[1]);
      return access ? replay(request, access, id) : denied(request, false);
    }
    const detail = /^\/dashboard\/deliveries\/([^/]+)$/.exec(path);
    if (detail?.[1] !== undefined) {
      if (!only('GET')) return;
      const id = pathParam(detail[1]);
      return access ? showDelivery(request, access, id, false) : denied(request, true);
    }
    if (!access) return denied(request, path.startsWith('/dashboard'));
    sendHtml(
      res,
      404,
      page(
        { title: 'Not found', section: 'deliveries', refreshMs, ...csrfOf(access) },
        html`<h1>Not found</h1>
          <p><a href="/dashboard">Back to the deliveries</a></p>`,
      ),
    );
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://admin.invalid');
    try {
      await route({ req, res, url, access: accessOf(req) });
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
      } else if (error instanceof FormTooLargeError) {
        sendText(res, 413, 'Payload too large\n', { Connection: 'close' });
      } else if (error instanceof BadRequestError) {
        sendText(res, 400, `Bad request: ${error.message}\n`);
      } else {
        log.error({ err: errorMessage(error), path: url.pathname }, 'admin request failed');
        sendText(res, 500, 'Internal error\n');
      }
    }
  };
}
