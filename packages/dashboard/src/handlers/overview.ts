/** `/dashboard/overview`: the charts of the last 24 h or 7 d (`?window=`). */
import type { AccessHandler } from '../access.js';
import { sendHtml } from '../answers.js';
import { BadRequestError, overviewQuerySchema, queryOf } from '../inputs.js';
import { overviewOf } from '../overview.js';
import { overviewPage } from '../pages/overview-page.js';
import type { HandlerDeps } from './handler-deps.js';

export function overviewHandler({
  gate,
  store,
  ignored,
  options,
  now,
  refreshMs,
}: Pick<
  HandlerDeps,
  'gate' | 'store' | 'ignored' | 'options' | 'now' | 'refreshMs'
>): AccessHandler {
  return async (ctx, access) => {
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
        ...gate.csrfOf(access),
      }),
    );
  };
}
