/**
 * The admin listener's gate: a request holds the admin token as a bearer header or as the session
 * cookie of the login form; a session's forms that change something also need its CSRF token and
 * this origin. Handlers get the `Access` a request proved and never see the token.
 */
import type { RouterContext } from '@koa/router';
import { headerBytes } from '@webhook-gateway/core';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import { redirect, sendText } from './answers.js';
import {
  bearerToken,
  csrfTokenFor,
  isValidCsrfToken,
  isValidSession,
  issueSession,
  tokensEqual,
} from './auth.js';
import { csrfFormSchema, deliveryIdParam } from './inputs.js';
import { clearedSessionCookie, SESSION_COOKIE, sessionCookie } from './session-cookie.js';

/** How a request proved it holds the token. */
export type Access = { via: 'bearer' } | { via: 'session'; session: string };

/** Who is told what on a request without the token: a page goes to the login form, the rest 401. */
type Asking = 'page' | 'api';

/** The handler of a request that holds the token. */
export type AccessHandler = (ctx: RouterContext, access: Access) => Promise<void> | void;

/** The handler of a path ending in a delivery's id, of a request that holds the token. */
export type DeliveryHandler = (ctx: RouterContext, access: Access, id: string) => Promise<void>;

type RouteMiddleware = Middleware<Koa.DefaultState, RouterContext>;

export interface AccessGate {
  /** How the request holds the token, if it does. */
  accessOf: (ctx: Context) => Access | undefined;
  /** Tells a request without the token where to go: the login form for a page, else 401. */
  denied: (ctx: Context, asking: Asking) => void;
  /** `handle` for a request that holds the token; `asking` says how one without it is told. */
  withAccess: (asking: Asking, handle: AccessHandler) => RouteMiddleware;
  /** Like `withAccess`, for a path ending in a delivery's id: checked first, token or not. */
  withDeliveryId: (asking: Asking, handle: DeliveryHandler) => RouteMiddleware;
  /** The CSRF token pages put in their forms (none for bearer access: no cookie to abuse). */
  csrfOf: (access: Access) => { csrf?: string };
  /** Checks a state-changing form of a session: same origin and the session's CSRF token. */
  checkedForm: (ctx: Context, access: Access) => boolean;
  /** Whether the login form's `token` is the admin token. */
  isAdminToken: (token: string) => boolean;
  /** Sets the cookie of a new session. */
  startSession: (ctx: Context) => void;
  /** Clears the session cookie. */
  endSession: (ctx: Context) => void;
}

/** A form post from another site carries a foreign Origin; browsers always send one on POST. */
export function sameOrigin(ctx: Context): boolean {
  const origin = ctx.headers.origin;
  return origin === undefined || origin === `http://${ctx.headers.host ?? ''}`;
}

/** 403 to a form that fails `checkedForm`. */
export function refuseForm(ctx: Context): void {
  sendText(ctx, 403, 'Forbidden: the form is stale or from another site; reload the page\n');
}

function unauthorized(ctx: Context): void {
  ctx.set('WWW-Authenticate', 'Bearer realm="webhook-gateway admin"');
  sendText(ctx, 401, 'Unauthorized: send the admin token as "Authorization: Bearer <token>"\n');
}

/** The gate of the admin `token`; sessions last `sessionTtlMs` from login by `now`. */
export function createAccessGate(settings: {
  token: string;
  sessionTtlMs: number;
  now: () => number;
}): AccessGate {
  const { token, sessionTtlMs, now } = settings;

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

  function denied(ctx: Context, asking: Asking): void {
    if (asking === 'api') return unauthorized(ctx);
    redirect(ctx, `/dashboard/login?next=${encodeURIComponent(`${ctx.path}${ctx.search}`)}`);
  }

  return {
    accessOf,
    denied,
    withAccess: (asking, handle) => async (ctx) => {
      const access = accessOf(ctx);
      if (access) await handle(ctx, access);
      else denied(ctx, asking);
    },
    withDeliveryId: (asking, handle) => async (ctx) => {
      const id = deliveryIdParam(ctx);
      const access = accessOf(ctx);
      if (access) await handle(ctx, access, id);
      else denied(ctx, asking);
    },
    csrfOf: (access) =>
      access.via === 'session' ? { csrf: csrfTokenFor(access.session, token) } : {},
    checkedForm(ctx, access) {
      if (access.via === 'bearer') return true;
      const form = csrfFormSchema.safeParse(ctx.request.body ?? {});
      if (!sameOrigin(ctx) || !form.success) return false;
      return isValidCsrfToken(form.data.csrf, access.session, token);
    },
    isAdminToken: (given) => tokensEqual(Buffer.from(given, 'utf8'), token),
    startSession(ctx) {
      ctx.append('Set-Cookie', sessionCookie(issueSession(token, now()), sessionTtlMs / 1000));
    },
    endSession(ctx) {
      ctx.append('Set-Cookie', clearedSessionCookie());
    },
  };
}
