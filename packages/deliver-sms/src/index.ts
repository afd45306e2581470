/** @webhook-gateway/deliver-sms: the `sms` target, texting answers through the Twilio Messages API. */
import { ConfigError, definePlugin, lazyTap, settingsIn } from '@webhook-gateway/core';
import { checkAtStart, httpTargetOptionsSchema, SentParts } from '@webhook-gateway/target-kit';
import { smsConfigProblems } from './config-problems.js';
import { smsSettingsSchema } from './settings.js';

export { smsConfigProblems } from './config-problems.js';
export { smsSettingsSchema, type SmsSettings } from './settings.js';
/** The plugin's options: those of every target that calls an HTTP service (in target-kit). */
export {
  httpTargetOptionsSchema as smsOptionsSchema,
  type HttpTargetOptions as SmsOptions,
} from '@webhook-gateway/target-kit';

export const SMS_PLUGIN_NAME = '@webhook-gateway/deliver-sms';

/**
 * The plugin. Its delivery code (`./delivery`) is imported at the first text, and by the
 * start-time check only when `platforms.sms` is enabled: a gateway that never texts never loads
 * it. Built in; to tune it:
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
    const deliverSms = lazyTap(() => import('./deliver.js'), 'deliverSms');
    hooks.deliver
      .for('sms')
      // The slice of the attempt's config, so a reload applies to the next delivery.
      .tapPromise(SMS_PLUGIN_NAME, (request) =>
        deliverSms(request, settingsIn(smsPlugin, request.config).sms, { options, sentParts }),
      );
    if (!serving) return;
    return checkAtStart(options, async (check) => {
      // Nothing to check (nor to load) unless sms is enabled.
      if (!sms.enabled) return;
      const { logTwilioConnection } = await import('./connection-check.js');
      await logTwilioConnection(sms, log, check);
    });
  },
});

export default smsPlugin;
