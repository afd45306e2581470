/** `/metrics`: the gateway's metrics in Prometheus' text format. */
import type { AccessHandler } from '../access.js';
import { sendText } from '../answers.js';
import type { HandlerDeps } from './handler-deps.js';

export function metricsHandler({ metrics }: Pick<HandlerDeps, 'metrics'>): AccessHandler {
  return async (ctx) => {
    const text = await metrics.registry.metrics();
    sendText(ctx, 200, text, metrics.registry.contentType);
  };
}
