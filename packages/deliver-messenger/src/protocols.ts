/** The four protocols, by canonical target name. */
import { discord } from './discord.js';
import type { MessengerProtocol, MessengerTarget } from './protocol.js';
import { signal } from './signal.js';
import { slack } from './slack.js';
import { telegram } from './telegram.js';

export const PROTOCOLS: Readonly<Record<MessengerTarget, MessengerProtocol>> = Object.freeze({
  messenger_a: telegram,
  messenger_b: discord,
  messenger_c: slack,
  messenger_d: signal,
});
