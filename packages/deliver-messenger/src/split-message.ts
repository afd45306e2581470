/**
 * Turns an answer into messages a chat service accepts: never longer than its limit, cut where a
 * reader would pause (paragraph, then line, then word), hard-cut only inside one over-long word.
 */
import { splitText } from '@webhook-gateway/target-kit';

/** The splitter shared by every target with a length limit (in target-kit). */
export const splitMessage = splitText;

/** Sent for an empty answer: the spec delivers every answer, and the services reject empty text. */
export const EMPTY_ANSWER_TEXT = '(empty answer)';

/**
 * The messages an answer is sent as: the answer itself (`SKIP` included), or
 * {@link EMPTY_ANSWER_TEXT} when it is empty or only whitespace, split at `limit`.
 */
export function messageParts(answer: string, limit: number): string[] {
  return splitMessage(answer.trim() === '' ? EMPTY_ANSWER_TEXT : answer, limit);
}
