/** `/dashboard/routes`: each configured route with its counts, and the last reconcile pass. */
import type { AccessHandler } from '../access.js';
import { sendHtml } from '../answers.js';
import { BadRequestError, queryOf, routesQuerySchema } from '../inputs.js';
import { routesPage } from '../pages/routes-page.js';
import { routeSummaries } from '../route-summaries.js';
import type { HandlerDeps } from './handler-deps.js';

export function routesHandler({
  gate,
  store,
  config,
  metrics,
  options,
  now,
  refreshMs,
}: Pick<
  HandlerDeps,
  'gate' | 'store' | 'config' | 'metrics' | 'options' | 'now' | 'refreshMs'
>): AccessHandler {
  return async (ctx, access) => {
    const query = routesQuerySchema.safeParse(queryOf(ctx));
    if (!query.success) throw new BadRequestError('unknown pause result');
    const pauses = await store.pauses();
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
        pauses,
        ...(query.data.pause === undefined ? {} : { pauseResult: query.data.pause }),
        scanLimit: options.counts_scan_limit,
        refreshMs,
        ...gate.csrfOf(access),
      }),
    );
  };
}
