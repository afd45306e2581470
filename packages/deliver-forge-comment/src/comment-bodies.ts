/** The comment bodies an answer becomes on a platform with a given limit. */
import { gatewayMarker } from '@webhook-gateway/core';
import { answerText } from '@webhook-gateway/target-kit';
import { splitForComments } from './split.js';

/**
 * Posted for an empty (or blank) answer. The spec delivers every answer, but gh and glab refuse
 * a blank body, so an empty answer becomes this visible note instead of a failed delivery.
 */
export const EMPTY_ANSWER_PLACEHOLDER = '(the agent gave an empty answer)';

/**
 * The answer as it is (`SKIP` included), or the placeholder when blank, split into numbered
 * parts when longer than `limit`. Each part ends with the gateway's hidden marker for delivery
 * `deliveryId`, so the loop guard ignores the comment when the forge sends it back as an event.
 */
export function commentBodies(answer: string, limit: number, deliveryId: string): string[] {
  const marker = `\n\n${gatewayMarker(deliveryId)}`;
  return splitForComments(answerText(answer, EMPTY_ANSWER_PLACEHOLDER), limit - marker.length).map(
    (body) => body + marker,
  );
}
