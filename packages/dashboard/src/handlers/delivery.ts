/** `/dashboard/deliveries/:id`: one delivery's page, and its live parts. */
import type { Context } from 'koa';
import type { Access, DeliveryHandler } from '../access.js';
import { notFound, sendHtml } from '../answers.js';
import { deliveryQuerySchema, queryOf } from '../inputs.js';
import { deliveryLiveParts, deliveryPage } from '../pages/delivery-page.js';
import type { HandlerDeps } from './handler-deps.js';

export function deliveryHandlers({
  gate,
  store,
  refreshMs,
}: Pick<HandlerDeps, 'gate' | 'store' | 'refreshMs'>): {
  /** The page. */
  page: DeliveryHandler;
  /** What changes while it is open, which the page reloads (`/dashboard/fragments/deliveries/:id`). */
  liveParts: DeliveryHandler;
} {
  async function show(ctx: Context, access: Access, id: string, fragment: boolean) {
    const record = await store.get(id);
    if (!record) {
      notFound(ctx, `No delivery ${id} in the journal (pruned, or never received)`);
      return;
    }
    // The findings its route keeps for the same pull or merge request (none for other events).
    const findings = record.orderKey === null ? [] : await store.findings(record.orderKey);
    if (fragment) {
      sendHtml(ctx, 200, deliveryLiveParts(record, gate.csrfOf(access).csrf, findings));
      return;
    }
    const query = deliveryQuerySchema.safeParse(queryOf(ctx));
    sendHtml(
      ctx,
      200,
      deliveryPage({
        record,
        findings,
        replayed: query.success && query.data.replayed === '1',
        refreshMs,
        ...gate.csrfOf(access),
      }),
    );
  }

  return {
    page: (ctx, access, id) => show(ctx, access, id, false),
    liveParts: (ctx, access, id) => show(ctx, access, id, true),
  };
}
