/**
 * A queued review on a `mode: update` route inside a whole gateway, the real `gh` talking to the
 * TLS fake forge: while an agent is held on a route with `concurrency: 1`, the pull request whose
 * living comment exists shows "Queued, 2nd" at its top above the previous review, "Paused by
 * operator" while the route is paused, and only the new review once it ran. A pull request
 * without a comment gets none.
 */
import { gate, waitFor } from '@webhook-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentMarker } from './living-comment.js';
import { startFakeForgeApi, type FakeForgeApi } from './test-support/fake-forge-api.js';
import { useGhGateway } from './test-support/gh-gateway.js';
import { openedPullRequest, postPullRequest } from './test-support/requests.js';

let forge: FakeForgeApi;
beforeAll(async () => {
  forge = await startFakeForgeApi();
});
afterAll(() => forge.close());

/** Opened to let the held run go. */
const held = gate();
const gh = useGhGateway({
  certFile: () => forge.certFile,
  answer: (request) => `reviewed ${request.delivery.deliveryId}`,
  // Only `held-1` is a slow agent: it holds the route's one slot until the test lets it go.
  hold: (request) => (request.delivery.deliveryId === 'held-1' ? held.opened : Promise.resolve()),
});

/** POSTs the opened pull request `number` as delivery `deliveryId`. */
const post = (url: string, deliveryId: string, number: number) =>
  postPullRequest(url, deliveryId, openedPullRequest(number));

const marker = commentMarker('review');
const bodies = (number: number) => forge.comments('octo/repo', number).map((c) => c.body);

/** Waits until pull request 2's only comment is `body`. */
async function commentBecomes(body: string, what: string): Promise<void> {
  await waitFor(() => (bodies(2).length === 1 && bodies(2)[0] === body) || undefined, what, {
    timeoutMs: 20_000,
    describe: () => JSON.stringify(bodies(2)),
  });
}

describe('a queued review on its living comment', () => {
  it('shows its place, then the pause, above the previous review until the new one replaces it', async () => {
    const url = await gh.start({
      route: 'review',
      extra: {
        routes: {
          review: {
            secret: 'INSECURE_NO_AUTH',
            deliver: 'forge_comment',
            deliver_extra: { mode: 'update' },
            concurrency: 1,
          },
        },
      },
      forge: { cli: 'gh', host: forge.host, token: forge.token, timeout_s: 20 },
    });
    // Pull request 2's living comment, from a first review.
    expect(await post(url, 'first-2', 2)).toBe(202);
    await gh.finished(1);
    const [previous] = bodies(2);
    expect(previous).toMatch(/^<!-- webhook-gateway:review -->\nreviewed first-2\n\n<!-- /);

    // The held run takes the route's slot; pull request 3 (no comment yet) waits 1st, 2 waits 2nd.
    expect(await post(url, 'held-1', 1)).toBe(202);
    await waitFor(
      async () => (await gh.store.list({ limit: 10 })).some((r) => r.status === 'running'),
      'the held run to start',
    );
    expect(await post(url, 'other-3', 3)).toBe(202);
    expect(await post(url, 'second-2', 2)).toBe(202);
    const below = `\n\n${previous?.slice(marker.length + 1) ?? ''}`;
    const queued = `${marker}\n> ⏳ Queued, 2nd: a new review starts when the ones ahead finish. <!-- webhook-gateway:waiting -->${below}`;
    await commentBecomes(queued, 'the queued line on the living comment');
    // Told in order of place: 3 was told first, and has no comment to show it on.
    expect(bodies(3)).toEqual([]);

    await gh.store.pause('review', 'deploy', Date.now());
    const paused = `${marker}\n> ⏸ Paused by operator, queued 2nd: a new review starts once the operator resumes the route. <!-- webhook-gateway:waiting -->${below}`;
    await commentBecomes(paused, 'the paused line on the living comment');

    // Resumed: the line is replaced again, never stacked.
    await gh.store.resume('review');
    await commentBecomes(queued, 'the queued line back on the living comment');

    held.open();
    const records = await gh.finished(4);
    expect(records.map((r) => r.status)).toEqual(Array(4).fill('delivered'));
    expect(bodies(2)).toHaveLength(1);
    expect(bodies(2)[0]).toMatch(/^<!-- webhook-gateway:review -->\nreviewed second-2\n\n<!-- /);
    expect(bodies(2)[0]).not.toContain('webhook-gateway:waiting');
    expect(bodies(3)).toHaveLength(1);
    expect(bodies(3)[0]).not.toContain('webhook-gateway:waiting');
  });
});
