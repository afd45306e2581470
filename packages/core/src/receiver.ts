/**
 * The Koa receiver: the checks of `docs/contract.md#the-order-of-checks` in their order, each with
 * its status and body.
 * Nothing slow runs here: an accepted delivery is journaled and handed to the worker pool.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { authenticateRequest, verdictEvent, type SchemeVerdict } from './auth-schemes.js';
import { BadBodyError, BodyTooLargeError, readPayload, readRawBody } from './body.js';
import type { LiveConfig } from './config/live.js';
import { INSECURE_NO_AUTH } from './config/schema.js';
import { outboundPlan } from './outbound-plan.js';
import { coalescePlan } from './coalesce.js';
import { orderKeyOf, payloadAction, type DeliveryRecord } from './delivery.js';
import { errorMessage } from './errors.js';
import type { GatewayHooks, RequestOutcome } from './hooks.js';
import { addHealthRoutes, type GatewayState } from './health.js';
import { deliveryIdOf, eventTypeOf, keptHeaders } from './headers.js';
import type { Logger } from './logger.js';
import type { RateLimiter } from './rate-limit.js';
import { endRequestSpan, startRequestSpan } from './request-trace.js';
import { routeSecrets, type RouteResolver } from './routes.js';
import type { DeliveryQueue } from './queue.js';
import type { Store } from './store.js';
import type { GatewayTracer, TraceSpan } from './tracing.js';

export interface ReceiverOptions {
  hooks: GatewayHooks;
  config: LiveConfig;
  resolveRoute: RouteResolver;
  store: Store;
  rateLimiter: RateLimiter;
  /** Where each journaled delivery goes next. */
  queue: Pick<DeliveryQueue, 'enqueue'>;
  /** Every loaded auth scheme, in order: what a route without `schemes` accepts. */
  schemes: readonly string[];
  /** What `/health` and `/ready` report, and whether a drain refuses webhooks. */
  state: GatewayState;
  log: Logger;
  /** With `observability.otlp`: each request's span, journaled with what it accepts. */
  tracer?: GatewayTracer;
}

/** What an accepted request did besides journaling, for the `requestHandled` event. */
interface AcceptedNote {
  /** How many queued deliveries it superseded. */
  superseded?: number;
}

function reply(ctx: Koa.Context, status: number, body: Record<string, unknown>): void {
  ctx.status = status;
  ctx.body = body;
}

/** How long an unread upload is discarded after the answer before the socket is dropped. */
const LINGER_MS = 2_000;

/**
 * Answers without reading the (rest of the) body, then closes the connection. Closing a socket
 * with unread bytes makes the kernel send a reset, which can destroy the answer before the client
 * reads it; so, like nginx's lingering close, half-close first and discard what still arrives for
 * a moment. Nothing is buffered.
 */
function replyUnread(ctx: Koa.Context, status: number, body: Record<string, unknown>): void {
  reply(ctx, status, body);
  if (ctx.req.complete) return;
  ctx.set('Connection', 'close');
  const socket = ctx.req.socket;
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  ctx.req.resume();
}

export function createReceiver(options: ReceiverOptions): Koa {
  const { hooks, store, log } = options;
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  const router = new Router();

  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      log.error({ err: errorMessage(error), path: ctx.path }, 'request failed');
      reply(ctx, 500, { error: 'Internal error' });
    }
    if (ctx.status === 404 && ctx.body === undefined) replyUnread(ctx, 404, { error: 'Not found' });
    // The router answers other methods on known paths with text (405, or 501 for methods it does
    // not know): answer them as JSON 405s, never a 5xx to a client's mistake.
    if (
      (ctx.status === 405 || ctx.status === 501) &&
      (ctx.body === undefined || typeof ctx.body === 'string')
    ) {
      replyUnread(ctx, 405, { error: 'Method not allowed' });
    }
  });

  addHealthRoutes(router, options.state, log);

  router.post('/webhooks/:route', async (ctx) => {
    const started = performance.now();
    const route = ctx.params.route ?? '';
    let outcome: RequestOutcome = 'error';
    const accepted: AcceptedNote = {};
    const span = options.tracer && startRequestSpan(options.tracer, route, ctx.req.headers);
    try {
      outcome = await handleWebhook(ctx, route, accepted, span);
    } finally {
      const durationMs = performance.now() - started;
      if (span) endRequestSpan(span, outcome, ctx.status);
      hooks.requestHandled.call({
        route,
        outcome,
        status: ctx.status,
        durationMs,
        ...(accepted.superseded ? { superseded: accepted.superseded } : {}),
      });
    }
  });

  router.all('/webhooks/:route', (ctx) => {
    ctx.set('Allow', 'POST');
    replyUnread(ctx, 405, { error: 'Method not allowed' });
  });

  /** The queue takes it from here; a failure there leaves it in the journal for the next poll. */
  function handOver(record: DeliveryRecord): void {
    Promise.resolve(options.queue.enqueue(record)).catch((error: unknown) => {
      log.error(
        { route: record.route, delivery_id: record.deliveryId, err: errorMessage(error) },
        'could not enqueue',
      );
    });
  }

  async function handleWebhook(
    ctx: Koa.Context,
    name: string,
    accepted: AcceptedNote,
    span: TraceSpan | undefined,
  ): Promise<RequestOutcome> {
    const config = options.config.current();
    // Each check as an event on the request's span: which one answered, and how.
    const checked = (check: string, passed: boolean, status?: number): void =>
      span?.addEvent(`check ${check}`, { passed, ...(status !== undefined ? { status } : {}) });
    const settings = config.platforms.webhook.extra;

    // 0. a drain with `drain_refuse`: the sender retries later, on this gateway's successor
    if (settings.drain_refuse && options.state.draining()) {
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(settings.shutdown_timeout_s))));
      replyUnread(ctx, 503, { error: 'Draining; retry later' });
      return 'draining';
    }

    // 1. route
    const route = await options.resolveRoute(name);
    if (!route) checked('route', false, 404);
    else checked('route', route.enabled !== false, route.enabled === false ? 403 : undefined);
    if (!route) {
      replyUnread(ctx, 404, { error: 'Unknown route' });
      return 'unknown_route';
    }
    // A route switched off keeps its config but answers as Hermes does, before any other check.
    if (route.enabled === false) {
      replyUnread(ctx, 403, { error: `Route disabled: ${name}` });
      return 'disabled';
    }

    // 2. size: refused from Content-Length, or counted while streaming; never buffered past it
    let rawBody: Buffer;
    try {
      rawBody = await readRawBody(ctx.req, settings.max_body_bytes);
    } catch (error) {
      checked('size', false, error instanceof BodyTooLargeError ? 413 : 400);
      if (error instanceof BodyTooLargeError) {
        replyUnread(ctx, 413, { error: 'Payload too large' });
        return 'too_large';
      }
      replyUnread(ctx, 400, { error: `Could not read the body: ${errorMessage(error)}` });
      return 'bad_request';
    }

    // 3. authentication, over the raw bytes: one of the route's schemes accepts, and no loaded
    // scheme whose signature header is there refuses (no downgrade between schemes)
    const secrets = routeSecrets(route, config);
    let verdict: SchemeVerdict | undefined;
    if (!secrets.includes(INSECURE_NO_AUTH)) {
      verdict = await authenticateRequest(
        hooks,
        route.schemes ?? options.schemes,
        { route: name, headers: ctx.req.headers, rawBody, secrets },
        options.schemes,
      );
      checked('authenticate', verdict?.ok === true, verdict?.ok ? undefined : 401);
      if (!verdict?.ok) {
        log.debug(
          {
            route: name,
            scheme: verdict?.scheme,
            reason: verdict ? verdict.reason : 'no signature or token header of its schemes',
          },
          'unauthorized',
        );
        reply(ctx, 401, { error: 'Invalid signature' });
        return 'unauthorized';
      }
    }

    // 4. rate limit, per route, rolling minute
    const now = Date.now();
    const limit = await options.rateLimiter.hit(name, settings.rate_limit, now);
    checked('rate limit', limit.allowed, limit.allowed ? undefined : 429);
    if (!limit.allowed) {
      ctx.set('Retry-After', String(limit.retryAfterS));
      reply(ctx, 429, { error: 'Rate limit exceeded' });
      return 'rate_limited';
    }

    // 5. a JSON object (or the forge's form encoding of one)
    let payload, payloadJson;
    try {
      ({ payload, json: payloadJson } = readPayload(ctx.get('content-type') || undefined, rawBody));
    } catch (error) {
      if (error instanceof BadBodyError) checked('json', false, error.status);
      if (error instanceof BadBodyError) {
        reply(ctx, error.status, { error: error.message });
        return error.status === 415 ? 'unsupported_type' : 'bad_request';
      }
      throw error;
    }

    // 6. events, actions, filters
    const event =
      (verdict?.ok ? verdictEvent(verdict, payload) : undefined) ??
      eventTypeOf(ctx.req.headers, payload);
    const action = payloadAction(payload);
    const deliveryId =
      (verdict?.ok && verdict.deliveryId ? verdict.deliveryId : undefined) ??
      deliveryIdOf(ctx.req.headers, now);
    const ignored = await hooks.filter.promise({
      route: name,
      routeConfig: route,
      event,
      action,
      payload,
      headers: ctx.req.headers,
      ...(verdict ? { authScheme: verdict.scheme } : {}),
    });
    checked('filter', ignored === undefined, ignored ? 200 : undefined);
    if (ignored) {
      span?.setAttributes({ 'webhook_gateway.ignored': ignored.reason });
      log.debug(
        { route: name, delivery_id: deliveryId, event, action, reason: ignored.reason },
        'ignored',
      );
      reply(
        ctx,
        200,
        ignored.reason === 'event'
          ? { status: 'ignored', event }
          : { status: 'ignored', event, reason: ignored.reason },
      );
      return 'ignored';
    }

    // 7–8. de-duplicate and journal, in one step; 202 only once committed
    const coalesce = coalescePlan(name, route, payload);
    let result;
    // The journal commit as the request's child span; what it journals is the request's span.
    const commit = span && options.tracer?.startSpan('journal commit', { parent: span });
    try {
      result = await store.accept(
        {
          ...(span ? { traceContext: span.traceparent } : {}),
          route: name,
          event,
          action,
          deliveryId,
          receivedAt: now,
          payload,
          payloadJson,
          headers: keptHeaders(ctx.req.headers),
          ...(verdict ? { authScheme: verdict.scheme } : {}),
          orderKey: coalesce?.orderKey ?? orderKeyOf(name, payload, verdict?.scheme),
          maxAttempts: route.max_attempts ?? settings.max_attempts,
          ...(route.supersede || coalesce ? { supersede: true } : {}),
          ...(coalesce ? { coalesce: coalesce.wait } : {}),
        },
        settings.dedupe_window_s * 1000,
        // Who hears that it was accepted, or that it superseded others (`extra.outbound`).
        outboundPlan(config, name),
      );
    } catch (error) {
      commit?.recordError(error);
      commit?.end();
      log.error(
        { route: name, delivery_id: deliveryId, err: errorMessage(error) },
        'could not journal the delivery',
      );
      reply(ctx, 503, { error: 'Could not journal the delivery; retry later' });
      return 'error';
    }
    commit?.setAttributes({ 'webhook_gateway.duplicate': !result.accepted });
    commit?.end();
    span?.setAttributes({
      'webhook_gateway.delivery_id': deliveryId,
      'webhook_gateway.event': event,
    });
    if (!result.accepted) {
      log.info({ route: name, delivery_id: deliveryId, event }, 'duplicate');
      reply(ctx, 200, { status: 'duplicate', delivery_id: deliveryId });
      return 'duplicate';
    }
    const superseded = result.superseded ?? [];
    log.info(
      {
        route: name,
        delivery_id: deliveryId,
        event,
        action,
        scheme: verdict?.scheme,
        ...(superseded.length > 0 ? { superseded } : {}),
      },
      'accepted',
    );
    accepted.superseded = superseded.length;
    handOver(result.record);
    reply(ctx, 202, { status: 'accepted', route: name, event, delivery_id: deliveryId });
    return 'accepted';
  }

  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
