import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { deliverRequest, fakeDelivery } from '@webhook-gateway/target-kit/testing';
import type { LineComment } from '@webhook-gateway/core';
import { deliverGiteaReview } from './deliver-gitea-review.js';
import { giteaOptionsSchema, giteaSettingsSchema } from './index.js';
import { startFakeGitea, type FakeGitea } from './test-support/fake-gitea.js';
import { addedFileDiff, fixture } from './test-support/fixtures.js';

const TOKEN = 'gitea-token-0123456789';
const OPENED = fixture('gitea/pull_request_opened.json'); // jcitizen/my-repo#1, head 2eba238e…
const HEAD = '2eba238e33607c1fa49253182e9fff42baafa1eb';

let fake: FakeGitea | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function startFake(): Promise<FakeGitea> {
  fake = await startFakeGitea({
    token: TOKEN,
    login: 'review-bot',
    pulls: { 'jcitizen/my-repo#1': { diff: addedFileDiff('LICENSE', 1, 20) } },
  });
  return fake;
}

function send(
  gitea: FakeGitea,
  setup: {
    summary?: string;
    lineComments?: LineComment[];
    extra?: Record<string, unknown>;
    attempts?: number;
  } = {},
) {
  const request = deliverRequest({
    answer: setup.summary ?? 'Two remarks.',
    lineComments: setup.lineComments ?? [],
    extra: setup.extra ?? {},
    log: capturingLogger().log,
    delivery: fakeDelivery({
      route: 'reviews',
      payload: OPENED,
      deliveryId: 'gitea-review-1',
      attempts: setup.attempts ?? 1,
      maxAttempts: 2,
    }),
  });
  return deliverGiteaReview(
    request,
    giteaSettingsSchema.parse({ base_url: gitea.url, token: TOKEN }),
    giteaOptionsSchema.parse({}),
  );
}

const marker = '<!-- webhook-gateway:delivery gitea-review-1 -->';

describe('gitea_review', () => {
  it('posts one COMMENT review on the head commit with the comments on their lines', async () => {
    const gitea = await startFake();
    const outcome = await send(gitea, {
      lineComments: [
        { path: 'LICENSE', line: 3, body: 'say which BSD' },
        { path: 'LICENSE', line: 12, body: 'year?' },
      ],
    });
    expect(outcome).toEqual({ onLines: 2, moved: 0, extraComments: 0 });
    expect(gitea.reviews).toMatchObject([
      {
        pull: 'jcitizen/my-repo#1',
        event: 'COMMENT',
        body: `Two remarks.\n\n${marker}`,
        commit_id: HEAD,
        comments: [
          { path: 'LICENSE', new_position: 3, body: `say which BSD\n\n${marker}` },
          { path: 'LICENSE', new_position: 12, body: `year?\n\n${marker}` },
        ],
      },
    ]);
    expect(gitea.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/v1/repos/jcitizen/my-repo/pulls/1.diff',
      'POST /api/v1/repos/jcitizen/my-repo/pulls/1/reviews',
    ]);
  });

  it('moves a comment on a line the diff does not show into the body, never dropping it', async () => {
    const gitea = await startFake();
    const outcome = await send(gitea, {
      lineComments: [
        { path: 'LICENSE', line: 5, body: 'fine here' },
        { path: 'LICENSE', line: 40, body: 'past the hunk' },
        { path: 'README.md', line: 1, body: 'not changed' },
      ],
    });
    expect(outcome).toEqual({ onLines: 1, moved: 2, extraComments: 0 });
    const [review] = gitea.reviews;
    expect(review?.comments.map((c) => c.new_position)).toEqual([5]);
    expect(review?.body).toBe(
      [
        'Two remarks.',
        '**Comments on lines this diff does not show**',
        '- `LICENSE:40` — past the hunk\n- `README.md:1` — not changed',
        marker,
      ].join('\n\n'),
    );
  });

  it('posts the comments in the body when Gitea still refuses the review', async () => {
    const gitea = await startFake();
    gitea.failNext((r) => r.url.endsWith('/reviews'), {
      status: 422,
      body: { message: 'line out of range' },
    });
    const outcome = await send(gitea, { lineComments: [{ path: 'LICENSE', line: 2, body: 'x' }] });
    expect(outcome).toEqual({ onLines: 0, moved: 1, extraComments: 0 });
    expect(gitea.reviews).toHaveLength(1);
    expect(gitea.reviews[0]?.body).toContain('- `LICENSE:2` — x');
  });

  it('without line comments reads no diff', async () => {
    const gitea = await startFake();
    await send(gitea);
    expect(gitea.requests.map((r) => r.method)).toEqual(['POST']);
  });

  it("check: true ends the head commit's status with the agent's conclusion once the review is posted", async () => {
    const gitea = await startFake();
    await send(gitea, {
      summary: 'All good: ship it.\nMore words.',
      extra: { check: true },
      lineComments: [{ path: 'LICENSE', line: 3, body: 'nit' }],
    });
    expect(gitea.statuses).toEqual([
      {
        repo: 'jcitizen/my-repo',
        sha: HEAD,
        state: 'success',
        context: 'webhook-gateway/reviews',
        description: 'Reviewed (1 comment)',
      },
    ]);
  });

  it('a failure conclusion fails the status, with the reason as its description', async () => {
    const gitea = await startFake();
    const request = deliverRequest({
      answer: 'Blocking.',
      extra: { check: true },
      log: capturingLogger().log,
      delivery: fakeDelivery({ route: 'reviews', payload: OPENED }),
    });
    await deliverGiteaReview(
      { ...request, conclusion: { value: 'failure', reason: 'SQL built from strings' } },
      giteaSettingsSchema.parse({ base_url: gitea.url, token: TOKEN }),
      giteaOptionsSchema.parse({}),
    );
    expect(gitea.statuses.map((s) => [s.state, s.description])).toEqual([
      ['failure', 'SQL built from strings'],
    ]);
  });

  it("check: true sets no status when the review cannot be posted (the delivery's end does)", async () => {
    const gitea = await startFake();
    const refuse = { status: 403, body: { message: 'user should have write permission' } };
    gitea.failNext((r) => r.url.endsWith('/reviews'), refuse);
    await expect(send(gitea, { extra: { check: true } })).rejects.toThrow(
      'Gitea answered HTTP 403: user should have write permission',
    );
    expect(gitea.statuses).toEqual([]);
  });
});
