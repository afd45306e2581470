/** What a target sends for an answer: every answer is delivered, and services refuse empty text. */

/** Sent for an empty answer: the spec delivers every answer, and the services reject empty text. */
export const EMPTY_ANSWER_TEXT = '(empty answer)';

/**
 * The answer itself (`SKIP` included), or `placeholder` when it is empty or only whitespace.
 *
 * @example
 * answerText('  '); // '(empty answer)'
 */
export function answerText(answer: string, placeholder = EMPTY_ANSWER_TEXT): string {
  return answer.trim() === '' ? placeholder : answer;
}
