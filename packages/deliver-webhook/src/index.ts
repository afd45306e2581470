/**
 * @webhook-gateway/deliver-webhook: outbound webhooks, signed as Standard Webhooks. The `webhook`
 * target posts a route's answer to an endpoint; the outbox's sender POSTs what the journal keeps
 * for them, and the lifecycle events of `extra.outbound`, each until it is sent or expires.
 */
import {
  definePlugin,
  lazyTap,
  settingsIn,
  type GatewayConfig,
  type PluginInstance,
} from '@webhook-gateway/core';
import { webhookTargetProblems, WEBHOOK_TARGET } from './config-problems.js';
import { destinationsOf } from './destinations.js';
import { webhookOptionsSchema } from './options.js';
import { OutboxSender } from './outbox-sender.js';
import { webhookTargetSettingsSchema } from './settings.js';

export { webhookTargetSettingsSchema, type WebhookTargetSettings } from './settings.js';
export { webhookOptionsSchema, type WebhookOptions } from './options.js';

export const WEBHOOK_PLUGIN_NAME = '@webhook-gateway/deliver-webhook';

/** The slice this plugin owns: `platforms.webhook_target`. */
const platforms = { webhook_target: webhookTargetSettingsSchema };

/** `platforms.webhook_target` as `config` holds it. */
function targetSettings(config: GatewayConfig) {
  return settingsIn({ platforms }, config).webhook_target;
}

/**
 * The plugin. Built in; the sender reads the outbox once the gateway serves, and loads its HTTP
 * client at its first POST.
 *
 * @example
 * // config.yaml
 * // platforms:
 * //   webhook_target:
 * //     endpoints:
 * //       ops: { url: https://ops.example.com/answers, secret: ${ANSWERS_SECRET} }
 * //   webhook:
 * //     extra:
 * //       outbound:
 * //         - { url: https://ops.example.com/events, secret: ${EVENTS_SECRET} }
 * //       routes:
 * //         reviews: { deliver: webhook, deliver_extra: { endpoint: ops } }
 */
const webhookPlugin = definePlugin({
  name: WEBHOOK_PLUGIN_NAME,
  provides: { targets: [WEBHOOK_TARGET] },
  platforms,
  options: webhookOptionsSchema,
  check: (config) => webhookTargetProblems(targetSettings(config), config),
  setup(
    { hooks, log, store, serving, settings, currentConfig, tracer },
    options,
  ): PluginInstance | void {
    const deliverWebhook = lazyTap(() => import('./deliver-webhook.js'), 'deliverWebhook');
    hooks.deliver.for(WEBHOOK_TARGET).tapPromise(WEBHOOK_PLUGIN_NAME, async (request) => {
      if (!store) throw new Error('the webhook target needs the journal, and none is open');
      // The attempt's config: a reload applies to the next delivery.
      await deliverWebhook(request, targetSettings(request.config), store);
    });
    if (!serving || !store) return;
    const sender = new OutboxSender({
      store,
      log,
      destinations: () => destinationsOf(currentConfig(), settings().webhook_target),
      options,
      // Each POST a span of its delivery's trace, with `observability.otlp` only.
      ...(tracer ? { tracer } : {}),
    });
    // What was just journaled may have written to the outbox: look now, not at the next poll.
    hooks.requestHandled.tap(WEBHOOK_PLUGIN_NAME, (event) => {
      if (event.outcome === 'accepted') sender.nudge();
    });
    hooks.attemptFinished.tap(WEBHOOK_PLUGIN_NAME, () => sender.nudge());
    return {
      serving: () => sender.start(),
      stop: () => sender.stop(),
    };
  },
});

export default webhookPlugin;
