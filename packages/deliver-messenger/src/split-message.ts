/**
 * Turns an answer into messages a chat service accepts: never longer than its limit, cut where a
 * reader would pause (paragraph, then line, then word), hard-cut only inside one over-long word.
 */
import { answerText, splitText } from '@webhook-gateway/target-kit';

/** The splitter shared by every target with a length limit (in target-kit). */
export { EMPTY_ANSWER_TEXT, splitText as splitMessage } from '@webhook-gateway/target-kit';

/**
 * The messages an answer is sent as: the answer itself (`SKIP` included), or
 * {@link EMPTY_ANSWER_TEXT} when it is empty or only whitespace, split at `limit`.
 */
export function messageParts(answer: string, limit: number): string[] {
  return splitText(answerText(answer), limit);
}
