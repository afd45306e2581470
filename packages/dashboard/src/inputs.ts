/** Everything the admin listener reads from a request passes one of these schemas first. */
import type { RouterContext } from '@koa/router';
import { DELIVERY_STATUSES } from '@webhook-gateway/core';
import type { Context } from 'koa';
import { z } from 'zod';

/** A request the admin listener cannot read: answered 400 with the message. */
export class BadRequestError extends Error {}

/** An empty form field means "no filter". */
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : value));

/** `?route=…&status=…` of the deliveries table; unknown keys are ignored. */
export const deliveriesQuerySchema = z.object({
  route: optionalText(200),
  status: z
    .union([z.enum(DELIVERY_STATUSES), z.literal('')])
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
});
export type DeliveriesQuery = z.infer<typeof deliveriesQuerySchema>;

/** `?replayed=1` of a delivery's page: it says the replay was queued. */
export const deliveryQuerySchema = z.object({ replayed: z.literal('1').optional() });

/** `?window=…` of the overview page: the span of its hourly chart (24 h unless given). */
export const overviewQuerySchema = z.object({
  window: z.enum(['24h', '7d']).default('24h'),
});

/** `?next=…` of the login page: where to go once logged in (checked by `safeNextPath`). */
export const loginQuerySchema = z.object({
  next: z.string().max(2048).optional(),
});

/** The login form. */
export const loginFormSchema = z.object({
  token: z.string().max(4096),
  next: optionalText(2048),
});

/** The pause form: a route, or none for every route, and a reason (both may be empty). */
export const pauseFormSchema = z.object({
  route: optionalText(200),
  reason: z
    .string()
    .max(500)
    .default('')
    .transform((value) => (value.trim() === '' ? undefined : value.trim())),
});

/** The resume form: the route whose pause to lift, or none for the pause of every route. */
export const resumeFormSchema = z.object({ route: optionalText(200) });

/** `?pause=…` of the routes page: what the last pause or resume form did. */
export const routesQuerySchema = z.object({
  pause: z.enum(['paused', 'already-paused', 'resumed', 'not-paused']).optional(),
});

/** A form that changes something (replay, log out): its CSRF token. */
export const csrfFormSchema = z.object({
  csrf: z.string().max(200).default(''),
});

/** A journal id (or the sender's delivery id) from a path. */
const deliveryIdSchema = z.string().min(1).max(200);

/** The statuses a filter may name, in the order the select lists them. */
export const deliveryStatuses: readonly string[] = DELIVERY_STATUSES;

/** A query string or form body as a plain object (repeated keys: the last wins). */
export function paramsObject(params: URLSearchParams): Record<string, string> {
  return Object.fromEntries(params.entries());
}

/** The query string as a plain object (repeated keys: the last wins). */
export function queryOf(ctx: Context): Record<string, string> {
  return paramsObject(new URLSearchParams(ctx.querystring));
}

/** The `:id` of a path, checked. */
export function deliveryIdParam(ctx: RouterContext): string {
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

/**
 * Where to go after logging in: a dashboard path of this listener, never another site (an
 * open redirect would make the login page a phishing aid).
 */
export function safeNextPath(next: string | undefined): string {
  if (next === undefined) return '/dashboard';
  const base = 'http://admin.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return '/dashboard';
  }
  if (url.origin !== base || !next.startsWith('/') || next.startsWith('//')) return '/dashboard';
  if (url.pathname !== '/dashboard' && !url.pathname.startsWith('/dashboard/')) return '/dashboard';
  if (url.pathname.startsWith('/dashboard/login')) return '/dashboard';
  return `${url.pathname}${url.search}`;
}
