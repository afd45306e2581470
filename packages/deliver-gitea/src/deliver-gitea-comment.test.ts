import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { deliverRequest, fakeDelivery } from '@webhook-gateway/target-kit/testing';
import type { JsonObject } from '@webhook-gateway/core';
import { deliverGiteaComment, GITEA_COMMENT_LIMIT } from './deliver-gitea-comment.js';
import { giteaOptionsSchema, giteaSettingsSchema } from './index.js';
import { startFakeGitea, type FakeGitea } from './test-support/fake-gitea.js';
import { fixture } from './test-support/fixtures.js';

const TOKEN = 'gitea-token-0123456789';
const OPENED = fixture('gitea/pull_request_opened.json'); // jcitizen/my-repo#1
const FORGEJO = fixture('gitea/pull_request_reopened.forgejo.json'); // test_it/test_ci_thing#1

let fake: FakeGitea | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function startFake(): Promise<FakeGitea> {
  fake = await startFakeGitea({
    token: TOKEN,
    login: 'review-bot',
    pulls: { 'jcitizen/my-repo#1': { diff: '' }, 'test_it/test_ci_thing#1': { diff: '' } },
  });
  return fake;
}

const options = (overrides: Record<string, unknown> = {}) =>
  giteaOptionsSchema.parse({ max_retry_after_s: 0.05, ...overrides });

function send(
  gitea: FakeGitea,
  answer: string,
  setup: {
    payload?: JsonObject;
    extra?: Record<string, unknown>;
    bot?: string;
    token?: string;
    deliveryId?: string;
  } = {},
) {
  const logger = capturingLogger();
  const request = deliverRequest({
    answer,
    extra: setup.extra ?? {},
    log: logger.log,
    delivery: fakeDelivery({
      route: 'reviews',
      payload: setup.payload ?? OPENED,
      deliveryId: setup.deliveryId ?? 'gitea-delivery-1',
      maxAttempts: 1,
    }),
  });
  const settings = giteaSettingsSchema.parse({
    base_url: gitea.url,
    token: setup.token ?? TOKEN,
    ...(setup.bot ? { bot: setup.bot } : {}),
  });
  return { done: deliverGiteaComment(request, settings, options()), logger };
}

describe('gitea_comment', () => {
  it("posts the answer on the payload's pull request with the token, marked for the loop guard", async () => {
    const gitea = await startFake();
    await send(gitea, 'Looks good.').done;
    expect(gitea.comments).toMatchObject([
      {
        issue: 'jcitizen/my-repo#1',
        body: 'Looks good.\n\n<!-- webhook-gateway:delivery gitea-delivery-1 -->',
        user: { login: 'review-bot' },
      },
    ]);
    expect(gitea.requests[0]?.headers.authorization).toBe(`token ${TOKEN}`);
    expect(gitea.requests[0]?.url).toBe('/api/v1/repos/jcitizen/my-repo/issues/1/comments');
  });

  it('reads a Forgejo payload the same way', async () => {
    const gitea = await startFake();
    await send(gitea, 'From Codeberg.', { payload: FORGEJO }).done;
    expect(gitea.comments.map((c) => c.issue)).toEqual(['test_it/test_ci_thing#1']);
  });

  it('splits an answer over the limit into numbered comments', async () => {
    const gitea = await startFake();
    const answer = ['a'.repeat(40_000), 'b'.repeat(40_000)].join('\n\n');
    await send(gitea, answer).done;
    expect(gitea.comments).toHaveLength(2);
    expect(gitea.comments.map((c) => c.body.slice(0, 8))).toEqual(['(1/2)\n\na', '(2/2)\n\nb']);
    for (const comment of gitea.comments) {
      expect(comment.body.length).toBeLessThanOrEqual(GITEA_COMMENT_LIMIT);
    }
  });

  it('mode: update keeps one living comment: edited, then shortened, never duplicated', async () => {
    const gitea = await startFake();
    const extra = { mode: 'update' };
    const long = ['a'.repeat(40_000), 'b'.repeat(40_000)].join('\n\n');
    await send(gitea, long, { extra }).done;
    expect(gitea.comments).toHaveLength(2);
    const firstId = gitea.comments[0]?.id;
    await send(gitea, 'Now short.', { extra, deliveryId: 'gitea-delivery-2' }).done;
    expect(gitea.comments).toEqual([
      expect.objectContaining({
        id: firstId,
        body: '<!-- webhook-gateway:reviews -->\nNow short.\n\n<!-- webhook-gateway:delivery gitea-delivery-2 -->',
      }),
    ]);
    expect(gitea.requests.map((r) => r.method)).toEqual([
      'GET',
      'POST',
      'POST',
      'GET',
      'PATCH',
      'DELETE',
    ]);
  });

  it("with platforms.gitea.bot, a person's comment quoting the marker is never edited", async () => {
    const gitea = await startFake();
    const quoted = gitea.addComment(
      'jcitizen/my-repo#1',
      'why does the bot write <!-- webhook-gateway:reviews --> ?',
      'jcitizen',
    );
    await send(gitea, 'Bot answer.', { extra: { mode: 'update' }, bot: 'review-bot' }).done;
    expect(gitea.comments.find((c) => c.id === quoted.id)?.body).toContain('why does the bot');
    expect(gitea.comments.filter((c) => c.user.login === 'review-bot')).toHaveLength(1);
  });

  it('posts a deleted living comment again', async () => {
    const gitea = await startFake();
    await send(gitea, 'One.', { extra: { mode: 'update' } }).done;
    gitea.comments.splice(0, 1);
    await send(gitea, 'Two.', { extra: { mode: 'update' } }).done;
    expect(gitea.comments.map((c) => c.body.split('\n')[1])).toEqual(['Two.']);
  });

  it('a refused token fails naming platforms.gitea.token, never the token', async () => {
    const gitea = await startFake();
    const error = (await send(gitea, 'x', { token: 'wrong-secret-token' }).done.catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toBe(
      'gitea_comment: POST /repos/jcitizen/my-repo/issues/1/comments failed: Gitea answered HTTP 401: token is required (check platforms.gitea.token)',
    );
    expect(error.message).not.toContain('wrong-secret-token');
  });

  it('waits out a 429, and fails on a 5xx so the worker retries', async () => {
    const gitea = await startFake();
    gitea.failNext((r) => r.method === 'POST', { status: 429, headers: { 'retry-after': '1' } });
    await send(gitea, 'after a wait').done;
    expect(gitea.comments).toHaveLength(1);
    gitea.failNext((r) => r.method === 'POST', { status: 503, body: 'unavailable' });
    await expect(send(gitea, 'x').done).rejects.toThrow(
      'Gitea answered HTTP 503 (a problem on its side); the delivery will be retried',
    );
  });

  it('names what to set when the event is not about a pull request', async () => {
    const gitea = await startFake();
    await expect(
      send(gitea, 'x', { payload: { repository: { full_name: 'a/b' } } }).done,
    ).rejects.toThrow(
      /gitea_comment: the payload has no pull request number .* set deliver_extra.pr_number/,
    );
    expect(gitea.requests).toHaveLength(0);
  });
});
