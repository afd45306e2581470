/**
 * `@webhook-gateway/deliver-sms/delivery`: the code behind the `sms` target, for programs that
 * reuse it. Apart from the package's entry, so that loading the plugin does not load it: the
 * plugin imports it at the first text.
 */
export { checkTwilio, logTwilioConnection } from './connection-check.js';
export { deliverSms } from './deliver.js';
export { resolveRecipient } from './recipient.js';
export { EMPTY_ANSWER_TEXT, SMS_MAX_LENGTH, smsParts, splitMessage } from './split-message.js';
export {
  accountRequest,
  classifyAccountAnswer,
  classifyMessageAnswer,
  messageRequest,
  type TwilioCredentials,
} from './twilio.js';
