/** `/dashboard`: the deliveries table, filtered by route and status, and its live rows. */
import type { Context } from 'koa';
import type { Access, AccessHandler } from '../access.js';
import { sendHtml } from '../answers.js';
import { BadRequestError, deliveriesQuerySchema, queryOf } from '../inputs.js';
import { deliveriesPage, deliveryRows } from '../pages/deliveries-page.js';
import { knownRouteNames } from '../route-summaries.js';
import type { HandlerDeps } from './handler-deps.js';

export function deliveriesHandlers({
  gate,
  store,
  config,
  options,
  refreshMs,
}: Pick<HandlerDeps, 'gate' | 'store' | 'config' | 'options' | 'refreshMs'>): {
  /** The page. */
  page: AccessHandler;
  /** The table's rows alone, which the page reloads (`/dashboard/fragments/deliveries`). */
  rows: AccessHandler;
} {
  async function show(ctx: Context, access: Access, fragment: boolean): Promise<void> {
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
        ...gate.csrfOf(access),
      }),
    );
  }

  return {
    page: (ctx, access) => show(ctx, access, false),
    rows: (ctx, access) => show(ctx, access, true),
  };
}
