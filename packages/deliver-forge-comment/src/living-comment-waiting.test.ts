/**
 * A queued review's status line on the living comment, through the real gh against the TLS fake
 * forge: what it edits, what it leaves alone, and that a failure is only a warning.
 */
import type { DeliveryWaitingRequest, QueueStanding } from '@webhook-gateway/core';
import { createHooks } from '@webhook-gateway/core/runtime';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { deliverForgeComment, forgeLivingComment } from './deliver-forge-comment.js';
import { FORGE_COMMENT_LIMIT } from './forge-cli.js';
import { commentMarker } from './living-comment.js';
import { showWaitingInLivingComment, waitingLine } from './living-comment-waiting.js';
import { tapWaitingLivingComment } from './waiting-living-comment-tap.js';
import { useGhAgainstFakeForge } from './test-support/gh-against-fake-forge.js';
import { deliverRequest } from './test-support/requests.js';

const forge = useGhAgainstFakeForge();

let pull = 500;
function nextPull(): { payload: Record<string, unknown>; number: number } {
  const number = ++pull;
  return {
    number,
    payload: { number, pull_request: { number }, repository: { full_name: 'octo/repo' } },
  };
}

const marker = commentMarker('reviews');
const second: Pick<QueueStanding, 'position' | 'reasons'> = {
  position: 2,
  reasons: [{ kind: 'route_concurrency', limit: 1 }],
};
const pausedFirst: Pick<QueueStanding, 'position' | 'reasons'> = {
  position: 1,
  reasons: [{ kind: 'paused', reason: 'deploy' }],
};

async function review(payload: Record<string, unknown>, answer: string, deliveryId: string) {
  await deliverForgeComment(
    deliverRequest({ payload, answer, deliveryId, deliverExtra: { mode: 'update' } }),
    forge.settings,
  );
}

async function show(
  payload: Record<string, unknown>,
  standing: Pick<QueueStanding, 'position' | 'reasons'>,
  deliveryId = 'waiting-1',
  limit = FORGE_COMMENT_LIMIT,
) {
  const request = deliverRequest({ payload, deliverExtra: { mode: 'update' } });
  const api = await forgeLivingComment(request, request.extra, forge.settings);
  return showWaitingInLivingComment(api, 'reviews', deliveryId, standing, limit);
}

const bodies = (number: number) => forge.api.comments('octo/repo', number).map((c) => c.body);

describe('a queued review on the living comment, through the real gh', () => {
  it('puts one status line above the previous review, replacing it as the place changes', async () => {
    const { payload, number } = nextPull();
    await review(payload, 'the previous review', 'earlier-1');
    const [previous = ''] = bodies(number);
    const rest = previous.slice(marker.length + 1);

    expect(await show(payload, second)).toBe('shown');
    expect(bodies(number)).toEqual([`${marker}\n${waitingLine(second)}\n\n${rest}`]);
    expect(waitingLine(second)).toBe(
      '> ⏳ Queued, 2nd: a new review starts when the ones ahead finish. <!-- webhook-gateway:waiting -->',
    );
    expect(await show(payload, pausedFirst)).toBe('shown');
    expect(bodies(number)).toEqual([`${marker}\n${waitingLine(pausedFirst)}\n\n${rest}`]);
    expect(waitingLine(pausedFirst)).toContain('⏸ Paused by operator, queued 1st');

    // The next review's answer replaces the whole body, the line with it.
    await review(payload, 'the new review', 'waiting-1');
    expect(bodies(number)).toHaveLength(1);
    expect(bodies(number)[0]).toMatch(/^<!-- webhook-gateway:reviews -->\nthe new review\n\n<!--/);
  });

  it('posts nothing when the route has no comment on the pull request', async () => {
    const { payload, number } = nextPull();
    expect(await show(payload, second)).toBe('no-comment');
    expect(bodies(number)).toEqual([]);
  });

  it('leaves alone a comment that holds this delivery’s answer, or whose first line someone changed', async () => {
    const { payload, number } = nextPull();
    await review(payload, 'already this delivery’s review', 'waiting-1');
    const delivered = bodies(number);
    expect(await show(payload, second, 'waiting-1')).toBe('delivered');
    expect(bodies(number)).toEqual(delivered);

    const [comment] = forge.api.comments('octo/repo', number);
    if (comment) comment.body = `someone wrote above ${marker}\nthe review`;
    expect(await show(payload, second, 'waiting-2')).toBe('not-ours');
    expect(bodies(number)).toEqual([`someone wrote above ${marker}\nthe review`]);
  });

  it('edits only the first part of a split review, and none that the line would push past the limit', async () => {
    const { payload, number } = nextPull();
    await review(payload, `${'word '.repeat(14_000)}\n\n${'more '.repeat(14_000)}`, 'long-1');
    const before = bodies(number);
    expect(before.length).toBeGreaterThan(1);
    expect(await show(payload, second, 'waiting-1', (before[0] ?? '').length + 10)).toBe(
      'too-long',
    );
    expect(bodies(number)).toEqual(before);
    expect(await show(payload, second)).toBe('shown');
    expect(bodies(number).slice(1)).toEqual(before.slice(1));
    expect(bodies(number)[0]).toContain('Queued, 2nd');
  });

  it('logs a failure as a warning and never throws (a forge that refuses the token)', async () => {
    const { payload, number } = nextPull();
    await review(payload, 'the previous review', 'earlier-1');
    const before = bodies(number);
    const hooks = createHooks();
    const refused = { ...forge.settings, token: 'not-the-token' };
    tapWaitingLivingComment(hooks, 'test', ['forge_comment'], async (request, extra) => ({
      api: await forgeLivingComment(request, extra, refused),
      limit: FORGE_COMMENT_LIMIT,
    }));
    const { log, lines } = capturingLogger();
    const base = deliverRequest({ payload, deliverExtra: { mode: 'update' } });
    const request: DeliveryWaitingRequest = {
      delivery: { ...base.delivery, status: 'queued' },
      routeConfig: base.routeConfig,
      config: base.config,
      credentials: async () => undefined,
      log,
      signal: base.signal,
      standing: {
        id: 'journal-1',
        route: 'reviews',
        queuedOnRoute: 2,
        estimatedStartAt: undefined,
        ...second,
      },
    };
    await expect(hooks.deliveryWaiting.promise(request)).resolves.toBeUndefined();
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      "could not show a queued review's place on the living comment",
    ]);
    expect(bodies(number)).toEqual(before);
  });
});
