/** The errors a comment target throws: each names the target and says what to do. */

/** Why a delivery to a forge could not be made, for tests and for people reading the journal. */
export type DeliveryFailureReason =
  | 'invalid-target'
  | 'cli-not-installed'
  | 'not-authenticated'
  | 'not-found'
  | 'timeout'
  | 'canceled'
  | 'cli-failed';

/** A failed `forge_comment` / `altforge_comment` delivery; the worker retries, then records it. */
export class CommentDeliveryError extends Error {
  readonly target: string;
  readonly reason: DeliveryFailureReason;

  constructor(target: string, reason: DeliveryFailureReason, message: string) {
    super(`${target}: ${message}`);
    this.name = 'CommentDeliveryError';
    this.target = target;
    this.reason = reason;
  }
}
