/** The human table of a reconcile pass: one row per route, then a line per route that failed. */
import type { PassResult } from '@webhook-gateway/reconcile/pass';
import { formatTable } from '../../table.js';

export function formatReconcile(result: PassResult, dryRun: boolean): string {
  const header = [
    'ROUTE',
    'LISTED',
    'JOURNALED',
    dryRun ? 'TO REDELIVER' : 'REDELIVERED',
    'FAILED',
  ];
  const rows = result.routes.map((r) => [
    r.route,
    String(r.listed),
    String(r.journaled),
    String(r.redelivered),
    r.error === undefined ? String(r.failed) : `${r.failed} (error)`,
  ]);
  const errors = result.routes
    .filter((r) => r.error !== undefined)
    .map((r) => `${r.route}: ${r.error}`);
  const notes = dryRun ? ['dry run: nothing was redelivered'] : [];
  return [formatTable(header, rows), ...errors, ...notes].join('\n');
}

/** `--json`: the counts per route and the delivery ids asked for. */
export function reconcileJson(result: PassResult, dryRun: boolean): object {
  return {
    dry_run: dryRun,
    started_at: new Date(result.startedAt).toISOString(),
    finished_at: new Date(result.finishedAt).toISOString(),
    routes: result.routes.map((r) => ({
      route: r.route,
      listed: r.listed,
      journaled: r.journaled,
      redelivered: r.redelivered,
      failed: r.failed,
      delivery_ids: r.redeliveredGuids,
      ...(r.error === undefined ? {} : { error: r.error }),
      ...(r.retryAfterMs === undefined ? {} : { retry_after_s: Math.ceil(r.retryAfterMs / 1000) }),
    })),
  };
}

/** Exit 0 when everything that needed redelivery was asked for, 1 otherwise. */
export function reconcileExitCode(result: PassResult): number {
  return result.routes.some((r) => r.failed > 0 || r.error !== undefined) ? 1 : 0;
}
