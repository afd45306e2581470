/**
 * Turns an answer into SMS bodies Twilio accepts: at most 1,600 characters each, cut where a
 * reader would pause (paragraph, then line, then word), hard-cut only inside one over-long word,
 * and numbered `(1/3) ` because texts may arrive out of order.
 */
import { answerText, splitText } from '@webhook-gateway/target-kit';

/** The splitter shared by every target with a length limit (in target-kit). */
export { EMPTY_ANSWER_TEXT, splitText as splitMessage } from '@webhook-gateway/target-kit';

/** Twilio's limit for one message Body. */
export const SMS_MAX_LENGTH = 1600;

const prefix = (index: number, count: number) => `(${index}/${count}) `;

/**
 * The SMS bodies an answer is sent as: the answer itself (`SKIP` included), or
 * {@link EMPTY_ANSWER_TEXT} when blank; when it needs several, each starts with `(n/N) ` and the
 * whole stays within `limit`.
 *
 * @example
 * smsParts('x'.repeat(2000)); // ['(1/2) xxx…', '(2/2) xxx…']
 */
export function smsParts(answer: string, limit = SMS_MAX_LENGTH): string[] {
  const text = answerText(answer);
  let reserve = 0;
  let parts = splitText(text, limit);
  // Room for the prefix depends on how many parts there are: grow it until it fits.
  while (parts.length > 1 && reserve < prefix(parts.length, parts.length).length) {
    reserve = prefix(parts.length, parts.length).length;
    parts = splitText(text, limit - reserve);
  }
  if (parts.length === 1) return parts;
  return parts.map((part, i) => `${prefix(i + 1, parts.length)}${part}`);
}
