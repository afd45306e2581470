/**
 * What the Cloud and Data Center gateway tests both check of the living comment while the next
 * review waits: its status line at the top, queued, then paused, then queued again.
 */
import type { Store } from '@webhook-gateway/core';
import { waitFor } from '@webhook-gateway/core/testing';

/** The route's marker as Bitbucket keeps it: a link definition, not an HTML comment. */
export const ROUTE_MARKER = '[//]: # (<!-- webhook-gateway:reviews -->)\n';

/**
 * Waits for the pull request's one living comment (`texts()`, its comments now) to read the
 * queued line above `previous` (the review it held), then, as the `reviews` route is paused and
 * resumed on `store`, the paused line and the queued line again. `whenQueued` runs at the first
 * queued line, before the pause.
 */
export async function expectWaitingLines(
  store: Store,
  texts: () => (string | undefined)[],
  previous: string,
  whenQueued: () => void = () => undefined,
): Promise<void> {
  // Bitbucket escapes HTML: the line's marker is a link definition of its own, below it.
  const below = `\n\n[//]: # (<!-- webhook-gateway:waiting -->)\n\n${previous.slice(ROUTE_MARKER.length)}`;
  const line = (text: string) => `${ROUTE_MARKER}> ${text}${below}`;
  const queued = line('⏳ Queued, 2nd: a new review starts when the ones ahead finish.');
  const becomes = (text: string, what: string) =>
    waitFor(() => (texts().length === 1 && texts()[0] === text) || undefined, what, {
      timeoutMs: 20_000,
      describe: () => JSON.stringify(texts()),
    });
  await becomes(queued, 'the queued line');
  whenQueued();
  await store.pause('reviews', null, Date.now());
  await becomes(
    line(
      '⏸ Paused by operator, queued 2nd: a new review starts once the operator resumes the route.',
    ),
    'the paused line',
  );
  await store.resume('reviews');
  await becomes(queued, 'the queued line again');
}
