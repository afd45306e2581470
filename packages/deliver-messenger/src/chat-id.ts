/** Which chat an answer goes to: the route's `deliver_extra.chat_id`, else the platform's home. */

/**
 * The chat id to deliver to. `extra.chat_id` (rendered from the payload) wins over
 * `platforms.<target>.home_channel`; with neither, the error says which keys to set.
 *
 * @example
 * resolveChatId({ chat_id: '-1001234' }, undefined, 'messenger_a'); // '-1001234'
 */
/**
 * The thread to answer in, `deliver_extra.thread_id` (Hermes' name), or undefined: a Telegram
 * forum topic (`message_thread_id`), a Slack thread (`thread_ts`), a Discord thread (a channel).
 */
export function resolveThreadId(extra: Record<string, unknown>): string | undefined {
  const thread = extra.thread_id;
  if (thread === undefined || thread === null || thread === '') return undefined;
  if (typeof thread === 'string') return thread.trim();
  if (typeof thread === 'number' && Number.isSafeInteger(thread)) return String(thread);
  throw new Error(
    `deliver_extra.thread_id must be a string or an integer, got ${JSON.stringify(thread)}`,
  );
}

export function resolveChatId(
  extra: Record<string, unknown>,
  homeChannel: string | undefined,
  target: string,
): string {
  const override = extra.chat_id;
  if (override !== undefined && override !== null) {
    if (typeof override === 'string' && override.trim() !== '') return override.trim();
    if (typeof override === 'number' && Number.isSafeInteger(override)) return String(override);
    if (typeof override === 'number') {
      throw new Error(
        `deliver_extra.chat_id ${override} is not an exact integer (too large for a number): quote it as a string`,
      );
    }
    throw new Error(
      `deliver_extra.chat_id must be a non-empty string or an integer, got ${JSON.stringify(override)}`,
    );
  }
  if (homeChannel !== undefined) return homeChannel;
  throw new Error(
    `no chat to deliver to for ${target}: set the route's deliver_extra.chat_id or platforms.${target}.home_channel`,
  );
}
