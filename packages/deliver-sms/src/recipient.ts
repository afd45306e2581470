/** Which number an answer is texted to: the route's `deliver_extra.to` (or `chat_id`), else `home_number`. */

/**
 * The number to text. `extra.to` (rendered from the payload) wins, then `extra.chat_id` (what
 * `webhook subscribe --deliver-chat-id` stores for a dynamic subscription), then
 * `platforms.sms.home_number`; with none, the error says which keys to set.
 *
 * @example
 * resolveRecipient({ to: '+15550004444' }, undefined); // '+15550004444'
 */
export function resolveRecipient(
  extra: Record<string, unknown>,
  homeNumber: string | undefined,
): string {
  const key = extra.to !== undefined && extra.to !== null ? 'to' : 'chat_id';
  const override = extra[key];
  if (override !== undefined && override !== null) {
    if (typeof override === 'string' && override.trim() !== '') return override.trim();
    if (typeof override === 'number') {
      // YAML reads +15550004444 as a number and drops the +, which changes the number's meaning.
      throw new Error(
        `deliver_extra.${key} is the number ${override}: quote it in the config ("+${override}") so the leading + is kept`,
      );
    }
    throw new Error(
      `deliver_extra.${key} must be a phone number string, got ${JSON.stringify(override)}`,
    );
  }
  if (homeNumber !== undefined) return homeNumber;
  throw new Error(
    "no number to text: set the route's deliver_extra.to or platforms.sms.home_number",
  );
}
