/**
 * `@webhook-gateway/deliver-messenger/delivery`: the protocols and the code behind the messenger
 * targets, for programs that reuse them. Apart from the package's entry, so that loading the
 * plugin does not load them: the plugin imports them at the first delivery.
 */
export { resolveChatId } from './chat-id.js';
export { messengerConfigProblems } from './config-problems.js';
export { checkConnection, logConnections } from './connection-check.js';
export { deliverToMessenger } from './deliver.js';
export { discord } from './discord.js';
export type { CheckOutcome, Endpoint, MessengerProtocol, SendOutcome } from './protocol.js';
export { PROTOCOLS } from './protocols.js';
export { parseRetryAfter } from '@webhook-gateway/target-kit';
export { signal } from './signal.js';
export { slack } from './slack.js';
export { EMPTY_ANSWER_TEXT, messageParts, splitMessage } from './split-message.js';
export { telegram } from './telegram.js';
