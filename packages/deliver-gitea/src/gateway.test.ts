/** Signed Gitea and Forgejo webhooks in, the review on the fake Gitea out, through a whole gateway. */
import { afterEach, describe, expect, it } from 'vitest';
import giteaAuth, { signGiteaBody } from '@webhook-gateway/auth-gitea';
import { gate, waitFor } from '@webhook-gateway/core/testing';
import { startSignedGateway, type SignedGateway } from '@webhook-gateway/target-kit/testing';
import plugin from './index.js';
import { startFakeGitea, type FakeGitea } from './test-support/fake-gitea.js';
import { addedFileDiff, fixtureBytes } from './test-support/fixtures.js';

const TOKEN = 'gitea-token-0123456789';
const SECRET = 'gitea-webhook-secret';

let fake: FakeGitea | undefined;
let gateway: SignedGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  await fake?.close();
  gateway = undefined;
  fake = undefined;
});

async function start(route: Record<string, unknown>, hold?: (deliveryId: string) => Promise<void>) {
  fake = await startFakeGitea({
    token: TOKEN,
    login: 'review-bot',
    pulls: {
      'jcitizen/my-repo#1': { diff: addedFileDiff('LICENSE', 1, 10) },
      'test_it/test_ci_thing#1': { diff: addedFileDiff('main.go', 1, 3) },
    },
  });
  gateway = await startSignedGateway({
    plugins: [giteaAuth, plugin],
    route: { secret: SECRET, events: ['pull_request'], ...route },
    platforms: { gitea: { base_url: fake.url, token: TOKEN, bot: 'review-bot' } },
    answer: {
      summary: 'One remark.',
      lineComments: [
        { path: 'LICENSE', line: 2, body: 'which BSD?' },
        { path: 'main.go', line: 2, body: 'handle the error' },
      ],
    },
    ...(hold ? { hold } : {}),
  });
  return { gitea: fake, running: gateway };
}

function signed(name: string, deliveryId: string, prefix = 'Gitea') {
  const body = fixtureBytes(name);
  return {
    body,
    headers: {
      [`X-${prefix}-Event`]: 'pull_request',
      [`X-${prefix}-Delivery`]: deliveryId,
      [`X-${prefix}-Signature`]: signGiteaBody(body, SECRET),
    },
  };
}

describe('Gitea targets through a running gateway', () => {
  it('a recorded Gitea pull_request gets its review on its lines and a success status', async () => {
    const { gitea, running } = await start({
      deliver: 'gitea_review',
      deliver_extra: { check: true },
    });
    const { body, headers } = signed('gitea/pull_request_opened.json', 'gitea-e2e-1');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished('gitea-e2e-1');
    expect(record.lastError).toBeNull();
    expect(record.status).toBe('delivered');
    expect(gitea.reviews).toHaveLength(1);
    expect(gitea.reviews[0]).toMatchObject({
      pull: 'jcitizen/my-repo#1',
      event: 'COMMENT',
      commit_id: '2eba238e33607c1fa49253182e9fff42baafa1eb',
      comments: [{ path: 'LICENSE', new_position: 2 }],
    });
    // main.go is not in this pull request's diff: its remark is in the body, not lost.
    expect(gitea.reviews[0]?.body).toContain('- `main.go:2` — handle the error');
    expect(gitea.statuses).toMatchObject([
      {
        sha: '2eba238e33607c1fa49253182e9fff42baafa1eb',
        state: 'pending',
        context: 'webhook-gateway/reviews',
        description: 'Review in progress',
      },
      {
        sha: '2eba238e33607c1fa49253182e9fff42baafa1eb',
        state: 'success',
        context: 'webhook-gateway/reviews',
        description: 'Reviewed (2 comments)',
      },
    ]);
  });

  it('a delivery that fails for good ends its status as failure, with the error', async () => {
    const { gitea, running } = await start({
      deliver: 'gitea_review',
      deliver_extra: { check: true },
    });
    const refuse = { status: 403, body: { message: 'user should have write permission' } };
    gitea.failNext((r) => r.url.endsWith('/reviews'), refuse, 5);
    const { body, headers } = signed('gitea/pull_request_opened.json', 'gitea-e2e-fail');
    expect(await running.post(headers, body)).toBe(202);
    expect((await running.finished('gitea-e2e-fail')).status).toBe('failed');
    const states = await waitFor(
      () => gitea.statuses.length === 2 && gitea.statuses.map((s) => s.state),
      'the failure status',
      { describe: () => JSON.stringify(gitea.statuses) },
    );
    expect(states).toEqual(['pending', 'failure']);
    expect(gitea.statuses[1]?.description).toBe('The review failed');
  });

  it('a recorded Forgejo pull_request keeps one living comment across two deliveries', async () => {
    const { gitea, running } = await start({
      deliver: 'gitea_comment',
      deliver_extra: { mode: 'update' },
    });
    for (const id of ['forgejo-e2e-1', 'forgejo-e2e-2']) {
      const { body, headers } = signed('gitea/pull_request_reopened.forgejo.json', id, 'Forgejo');
      expect(await running.post(headers, body)).toBe(202);
      expect((await running.finished(id)).status).toBe('delivered');
    }
    expect(gitea.comments).toHaveLength(1);
    expect(gitea.comments[0]).toMatchObject({ issue: 'test_it/test_ci_thing#1' });
    expect(gitea.comments[0]?.body).toContain('<!-- webhook-gateway:reviews -->');
    expect(gitea.comments[0]?.body).toContain('main.go:2 — handle the error');
    expect(gitea.comments[0]?.body).toContain('delivery forgejo-e2e-2');
  });

  it('a queued review shows its place, then the pause, at the top of the living comment', async () => {
    const slot = gate();
    // `held` is a slow agent on another pull request: it holds the route's one slot.
    const { gitea, running } = await start(
      { deliver: 'gitea_comment', deliver_extra: { mode: 'update' }, concurrency: 1 },
      (deliveryId) => (deliveryId === 'held' ? slot.opened : Promise.resolve()),
    );
    const forgejo = (id: string) =>
      signed('gitea/pull_request_reopened.forgejo.json', id, 'Forgejo');
    const first = forgejo('forgejo-1');
    expect(await running.post(first.headers, first.body)).toBe(202);
    expect((await running.finished('forgejo-1')).status).toBe('delivered');
    const previous = gitea.comments[0]?.body ?? '';
    const marker = '<!-- webhook-gateway:reviews -->\n';
    expect(previous.startsWith(marker)).toBe(true);

    const held = signed('gitea/pull_request_opened.json', 'held');
    expect(await running.post(held.headers, held.body)).toBe(202);
    await waitFor(
      async () => (await running.store.list({})).some((r) => r.status === 'running'),
      'the held run to start',
    );
    const second = forgejo('forgejo-2');
    expect(await running.post(second.headers, second.body)).toBe(202);
    const below = `\n\n${previous.slice(marker.length)}`;
    const line = (text: string) => `${marker}> ${text} <!-- webhook-gateway:waiting -->${below}`;
    const queued = line('⏳ Queued, 1st: a new review starts when the ones ahead finish.');
    const living = () => gitea.comments.filter((c) => c.issue === 'test_it/test_ci_thing#1');
    const becomes = (body: string, what: string) =>
      waitFor(() => (living().length === 1 && living()[0]?.body === body) || undefined, what, {
        timeoutMs: 20_000,
        describe: () => JSON.stringify(living()),
      });
    await becomes(queued, 'the queued line');
    await running.store.pause('reviews', null, Date.now());
    await becomes(
      line(
        '⏸ Paused by operator, queued 1st: a new review starts once the operator resumes the route.',
      ),
      'the paused line',
    );
    await running.store.resume('reviews');
    await becomes(queued, 'the queued line again');
    // The held pull request had no living comment: none was posted to say it waits.
    expect(gitea.comments.filter((c) => c.issue === 'jcitizen/my-repo#1')).toEqual([]);

    slot.open();
    expect((await running.finished('forgejo-2')).status).toBe('delivered');
    expect(living()).toHaveLength(1);
    expect(living()[0]?.body).toContain('delivery forgejo-2');
    expect(living()[0]?.body).not.toContain('webhook-gateway:waiting');
    expect((await running.finished('held')).status).toBe('delivered');
  });
});
