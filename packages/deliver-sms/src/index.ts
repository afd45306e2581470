/** @webhook-gateway/deliver-sms: the `sms` target, texting answers through the Twilio Messages API. */
import { ConfigError, definePlugin, settingsIn } from '@webhook-gateway/core';
import { checkAtStart, httpTargetOptionsSchema, SentParts } from '@webhook-gateway/target-kit';
import { smsConfigProblems } from './config-problems.js';
import { logTwilioConnection } from './connection-check.js';
import { deliverSms } from './deliver.js';
import { smsSettingsSchema } from './settings.js';

export { smsConfigProblems } from './config-problems.js';
export { checkTwilio, logTwilioConnection } from './connection-check.js';
export { deliverSms } from './deliver.js';
export { smsSettingsSchema, type SmsSettings } from './settings.js';
/** The plugin's options: those of every target that calls an HTTP service (in target-kit). */
export {
  httpTargetOptionsSchema as smsOptionsSchema,
  type HttpTargetOptions as SmsOptions,
} from '@webhook-gateway/target-kit';
export { resolveRecipient } from './recipient.js';
export { EMPTY_ANSWER_TEXT, SMS_MAX_LENGTH, smsParts, splitMessage } from './split-message.js';
export {
  accountRequest,
  classifyAccountAnswer,
  classifyMessageAnswer,
  messageRequest,
  type TwilioCredentials,
} from './twilio.js';

export const SMS_PLUGIN_NAME = '@webhook-gateway/deliver-sms';

/**
 * The plugin. Built in; to tune it:
 *
 * @example
 * // config.yaml
 * // plugins:
 * //   - name: '@webhook-gateway/deliver-sms'
 * //     options: { request_timeout_s: 20 }
 */
const smsPlugin = definePlugin({
  name: SMS_PLUGIN_NAME,
  provides: { targets: ['sms'] },
  platforms: { sms: smsSettingsSchema },
  options: httpTargetOptionsSchema,
  setup({ hooks, log, config, serving, settings }, options) {
    const { sms } = settings;
    if (serving) {
      const problems = smsConfigProblems(sms, config);
      if (problems.length > 0) throw new ConfigError(problems);
    }
    const sentParts = new SentParts();
    hooks.deliver
      .for('sms')
      // The slice of the attempt's config, so a reload applies to the next delivery.
      .tapPromise(SMS_PLUGIN_NAME, (request) =>
        deliverSms(request, settingsIn(smsPlugin, request.config).sms, { options, sentParts }),
      );
    if (!serving) return;
    return checkAtStart(options, (check) => logTwilioConnection(sms, log, check));
  },
});

export default smsPlugin;
