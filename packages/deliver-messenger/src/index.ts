/**
 * @webhook-gateway/deliver-messenger: the `messenger_a`..`messenger_d` targets (Telegram, Discord,
 * Slack and signal-cli protocols), each configured under `platforms.<target>`.
 */
import { ConfigError, definePlugin, lazyTap, settingsIn } from '@webhook-gateway/core';
import { checkAtStart, httpTargetOptionsSchema, SentParts } from '@webhook-gateway/target-kit';
import { messengerAliases, messengerSettingsSchemas } from './platform-settings.js';
import { MESSENGER_TARGETS, usesMessengers } from './targets.js';

export { messengerSettingsSchemas, type MessengerSettings } from './platform-settings.js';
/** The plugin's options: those of every target that calls an HTTP service (in target-kit). */
export {
  httpTargetOptionsSchema as messengerOptionsSchema,
  type HttpTargetOptions as MessengerOptions,
} from '@webhook-gateway/target-kit';
export type { MessengerTarget } from './protocol.js';
export { isMessengerTarget, MESSENGER_TARGETS } from './targets.js';

export const MESSENGER_PLUGIN_NAME = '@webhook-gateway/deliver-messenger';

/**
 * The plugin. The protocols and the delivery code (`./delivery`) are imported at the first
 * delivery, and by the start-time checks only when a messenger is enabled or a route delivers to
 * one: a gateway that never sends a message never loads them. Built in; to tune it:
 *
 * @example
 * // config.yaml
 * // plugins:
 * //   - name: '@webhook-gateway/deliver-messenger'
 * //     options: { request_timeout_s: 20, rate_limit_retries: 5 }
 */
const messengerPlugin = definePlugin({
  name: MESSENGER_PLUGIN_NAME,
  provides: { targets: MESSENGER_TARGETS },
  platforms: messengerSettingsSchemas,
  aliases: messengerAliases,
  options: httpTargetOptionsSchema,
  async setup({ hooks, log, config, serving, settings }, options) {
    const used = usesMessengers(settings, config);
    if (serving && used) {
      const { messengerConfigProblems } = await import('./config-problems.js');
      const problems = messengerConfigProblems(settings, config);
      if (problems.length > 0) throw new ConfigError(problems);
    }
    const sentParts = new SentParts();
    const deliverToTarget = lazyTap(() => import('./deliver.js'), 'deliverToTarget');
    for (const target of MESSENGER_TARGETS) {
      hooks.deliver
        .for(target)
        // The slices of the attempt's config, so a reload applies to the next delivery.
        .tapPromise(MESSENGER_PLUGIN_NAME, (request) =>
          deliverToTarget(target, request, settingsIn(messengerPlugin, request.config), {
            options,
            sentParts,
          }),
        );
    }
    if (!serving) return;
    return checkAtStart(options, async (check) => {
      // Nothing to check (nor to load) unless a messenger is enabled or named.
      if (!used) return;
      const { logConnections } = await import('./connection-check.js');
      await logConnections(settings, log, check);
    });
  },
});

export default messengerPlugin;
