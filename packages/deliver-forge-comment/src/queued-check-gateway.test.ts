/**
 * A queued review's check inside a whole gateway, the real `gh` talking to the TLS fake forge:
 * while an agent is held, the reviews queued behind it on a route with `concurrency: 1` show
 * "Queued, 1st" and "Queued, 2nd" as pending commit statuses (the `deliveryWaiting` hook), then
 * their own progress and conclusion once they run.
 */
import { gate, waitFor } from '@webhook-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForgeApi, type FakeForgeApi } from './test-support/fake-forge-api.js';
import { useGhGateway } from './test-support/gh-gateway.js';
import { openedPullRequest, postPullRequest } from './test-support/requests.js';

let forge: FakeForgeApi;
beforeAll(async () => {
  forge = await startFakeForgeApi();
});
afterAll(() => forge.close());

/** Opened to let the held runs go. */
const held = gate();
const gh = useGhGateway({
  certFile: () => forge.certFile,
  answer: (request) => `reviewed ${request.delivery.deliveryId}`,
  hold: () => held.opened,
});

describe('a queued review on the forge', () => {
  it('shows "Queued, 2nd" while it waits, then in progress and its conclusion', async () => {
    const url = await gh.start({
      route: 'review',
      extra: {
        routes: {
          review: {
            secret: 'INSECURE_NO_AUTH',
            deliver: 'forge_comment',
            deliver_extra: { check: true },
            concurrency: 1,
          },
        },
      },
      forge: { cli: 'gh', host: forge.host, token: forge.token, timeout_s: 20 },
    });
    const shas = ['a', 'b', 'c'].map((letter) => letter.repeat(40));
    for (const [index, sha] of shas.entries()) {
      expect(
        await postPullRequest(url, `queued-${index + 1}`, openedPullRequest(index + 1, sha)),
      ).toBe(202);
    }
    const descriptions = (sha: string) =>
      forge.checks
        .statuses()
        .filter((status) => status.sha === sha)
        .map((status) => `${status.state}: ${status.description ?? ''}`);
    // The first is held in its run; the other two wait for the route's one slot.
    await waitFor(
      () =>
        descriptions(shas[2] ?? '').includes('pending: Queued, 2nd') &&
        descriptions(shas[1] ?? '').includes('pending: Queued, 1st')
          ? true
          : undefined,
      'the queued reviews’ places on the forge',
      { timeoutMs: 20_000 },
    );
    expect(descriptions(shas[0] ?? '')).toEqual(['pending: Review in progress']);

    held.open();
    await gh.finished(3);
    const third = descriptions(shas[2] ?? '');
    // Whether it was told "Queued, 1st" depends on whether a pass saw it 1st before it started.
    expect(third.filter((text) => text !== 'pending: Queued, 1st')).toEqual([
      'pending: Queued, 2nd',
      'pending: Review in progress',
      'success: Reviewed',
    ]);
  });
});
