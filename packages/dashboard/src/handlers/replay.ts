/** POST `/dashboard/deliveries/:id/replay`: runs a finished delivery again, as a new row. */
import { refuseForm, type DeliveryHandler } from '../access.js';
import { notFound, redirect, sendText } from '../answers.js';
import { canReplay } from '../replay-rule.js';
import type { HandlerDeps } from './handler-deps.js';

export function replayHandler({
  gate,
  store,
  log,
  now,
}: Pick<HandlerDeps, 'gate' | 'store' | 'log' | 'now'>): DeliveryHandler {
  return async (ctx, access, id) => {
    if (!gate.checkedForm(ctx, access)) {
      refuseForm(ctx);
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
  };
}
