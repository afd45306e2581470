/**
 * @webhook-gateway/deliver-messenger: the `messenger_a`..`messenger_d` targets (Telegram, Discord,
 * Slack and signal-cli protocols), each configured under `platforms.<target>`.
 */
import { ConfigError, definePlugin, settingsIn } from '@webhook-gateway/core';
import { checkAtStart, httpTargetOptionsSchema, SentParts } from '@webhook-gateway/target-kit';
import { messengerConfigProblems } from './config-problems.js';
import { logConnections } from './connection-check.js';
import { deliverToMessenger } from './deliver.js';
import { messengerAliases, messengerSettingsSchemas } from './platform-settings.js';
import { PROTOCOLS } from './protocols.js';

export { resolveChatId } from './chat-id.js';
export { messengerConfigProblems } from './config-problems.js';
export { checkConnection, logConnections } from './connection-check.js';
export { deliverToMessenger } from './deliver.js';
export { discord } from './discord.js';
export { messengerSettingsSchemas, type MessengerSettings } from './platform-settings.js';
/** The plugin's options: those of every target that calls an HTTP service (in target-kit). */
export {
  httpTargetOptionsSchema as messengerOptionsSchema,
  type HttpTargetOptions as MessengerOptions,
} from '@webhook-gateway/target-kit';
export type {
  CheckOutcome,
  Endpoint,
  MessengerProtocol,
  MessengerTarget,
  SendOutcome,
} from './protocol.js';
export { PROTOCOLS, isMessengerTarget } from './protocols.js';
export { parseRetryAfter } from '@webhook-gateway/target-kit';
export { signal } from './signal.js';
export { slack } from './slack.js';
export { EMPTY_ANSWER_TEXT, messageParts, splitMessage } from './split-message.js';
export { telegram } from './telegram.js';

export const MESSENGER_PLUGIN_NAME = '@webhook-gateway/deliver-messenger';

/**
 * The plugin. Built in; to tune it:
 *
 * @example
 * // config.yaml
 * // plugins:
 * //   - name: '@webhook-gateway/deliver-messenger'
 * //     options: { request_timeout_s: 20, rate_limit_retries: 5 }
 */
const messengerPlugin = definePlugin({
  name: MESSENGER_PLUGIN_NAME,
  provides: { targets: Object.values(PROTOCOLS).map((protocol) => protocol.target) },
  platforms: messengerSettingsSchemas,
  aliases: messengerAliases,
  options: httpTargetOptionsSchema,
  setup({ hooks, log, config, serving, settings }, options) {
    if (serving) {
      const problems = messengerConfigProblems(settings, config);
      if (problems.length > 0) throw new ConfigError(problems);
    }
    const sentParts = new SentParts();
    for (const protocol of Object.values(PROTOCOLS)) {
      hooks.deliver
        .for(protocol.target)
        // The slices of the attempt's config, so a reload applies to the next delivery.
        .tapPromise(MESSENGER_PLUGIN_NAME, (request) =>
          deliverToMessenger(protocol, request, settingsIn(messengerPlugin, request.config), {
            options,
            sentParts,
          }),
        );
    }
    if (!serving) return;
    return checkAtStart(options, (check) => logConnections(settings, log, check));
  },
});

export default messengerPlugin;
