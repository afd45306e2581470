/** The comment bodies an answer becomes on a platform with a given limit. */
import { answerText } from '@webhook-gateway/target-kit';
import { splitForComments } from './split.js';

/**
 * Posted for an empty (or blank) answer. The spec delivers every answer, but gh and glab refuse
 * a blank body, so an empty answer becomes this visible note instead of a failed delivery.
 */
export const EMPTY_ANSWER_PLACEHOLDER = '(the agent gave an empty answer)';

/**
 * The answer as it is (`SKIP` included), or the placeholder when blank, split into numbered
 * parts when longer than `limit`.
 */
export function commentBodies(answer: string, limit: number): string[] {
  return splitForComments(answerText(answer, EMPTY_ANSWER_PLACEHOLDER), limit);
}
