import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { deliverRequest, fakeDelivery } from '@webhook-gateway/target-kit/testing';
import type { JsonObject, LineComment } from '@webhook-gateway/core';
import { deliverBitbucketComment } from './deliver-bitbucket-comment.js';
import { deliverBitbucketReview } from './deliver-bitbucket-review.js';
import { bitbucketOptionsSchema, bitbucketSettingsSchema } from './index.js';
import { startFakeBitbucket, type FakeBitbucket } from './test-support/fake-bitbucket.js';
import { addedFileDiff, fixture } from './test-support/fixtures.js';

const TOKEN = 'bitbucket-access-token-0123';
const CREATED = fixture('bitbucket/pullrequest_created.json'); // brydzewski/foo#1, head 507a576e59b3
const BOT = { uuid: '{bot-uuid}', nickname: 'review-bot' };

let fake: FakeBitbucket | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function startFake(pagelen?: number): Promise<FakeBitbucket> {
  fake = await startFakeBitbucket({
    token: TOKEN,
    bot: BOT,
    pulls: { 'brydzewski/foo#1': { diff: addedFileDiff('src/app.py', 1, 10) } },
    ...(pagelen ? { pagelen } : {}),
  });
  return fake;
}

interface Setup {
  summary?: string;
  lineComments?: LineComment[];
  extra?: Record<string, unknown>;
  payload?: JsonObject;
  deliveryId?: string;
  bot?: string;
  token?: string;
}

function request(setup: Setup) {
  return deliverRequest({
    answer: setup.summary ?? 'Looks good.',
    lineComments: setup.lineComments ?? [],
    extra: setup.extra ?? {},
    log: capturingLogger().log,
    delivery: fakeDelivery({
      route: 'reviews',
      payload: setup.payload ?? CREATED,
      deliveryId: setup.deliveryId ?? 'bb-delivery-1',
      maxAttempts: 1,
    }),
  });
}

function settings(bitbucket: FakeBitbucket, setup: Setup) {
  return bitbucketSettingsSchema.parse({
    base_url: bitbucket.apiBase,
    token: setup.token ?? TOKEN,
    ...(setup.bot ? { bot: setup.bot } : {}),
  });
}

const options = bitbucketOptionsSchema.parse({ max_retry_after_s: 0.05 });
const comment = (bitbucket: FakeBitbucket, setup: Setup = {}) =>
  deliverBitbucketComment(request(setup), settings(bitbucket, setup), options);
const review = (bitbucket: FakeBitbucket, setup: Setup = {}) =>
  deliverBitbucketReview(request(setup), settings(bitbucket, setup), options);

const live = (bitbucket: FakeBitbucket) => bitbucket.comments.filter((c) => !c.deleted);

describe('bitbucket_comment', () => {
  it("posts the answer on the payload's pull request with a Bearer token, its marker hidden as a link definition", async () => {
    const bitbucket = await startFake();
    await comment(bitbucket);
    expect(bitbucket.comments).toMatchObject([
      {
        pull: 'brydzewski/foo#1',
        raw: 'Looks good.\n\n[//]: # (<!-- webhook-gateway:delivery bb-delivery-1 -->)',
      },
    ]);
    expect(bitbucket.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(bitbucket.requests[0]?.url).toBe(
      '/2.0/repositories/brydzewski/foo/pullrequests/1/comments',
    );
  });

  it('mode: update edits one living comment across pages, and posts it again once deleted', async () => {
    const bitbucket = await startFake(2);
    for (let i = 0; i < 3; i++)
      bitbucket.addComment('brydzewski/foo#1', `chatter ${i}`, 'jcitizen');
    const extra = { mode: 'update' };
    await comment(bitbucket, { extra, summary: 'First.' });
    await comment(bitbucket, { extra, summary: 'Second.', deliveryId: 'bb-delivery-2' });
    const mine = live(bitbucket).filter((c) => c.user.nickname === 'review-bot');
    expect(mine.map((c) => c.raw)).toEqual([
      '[//]: # (<!-- webhook-gateway:reviews -->)\nSecond.\n\n[//]: # (<!-- webhook-gateway:delivery bb-delivery-2 -->)',
    ]);
    // The second delivery listed both pages (2 comments each) before editing.
    const methods = bitbucket.requests.map(
      (r) => `${r.method} ${r.url.replace(/^.*comments/, '')}`,
    );
    expect(methods.slice(3)).toEqual(['GET ', 'GET ?page=2', 'PUT /1003']);
    mine[0]!.deleted = true;
    await comment(bitbucket, { extra, summary: 'Third.' });
    expect(live(bitbucket).filter((c) => c.user.nickname === 'review-bot')).toHaveLength(1);
  });

  it("with platforms.bitbucket.bot, a person's comment quoting the marker is never edited", async () => {
    const bitbucket = await startFake();
    const quoted = bitbucket.addComment(
      'brydzewski/foo#1',
      'see <!-- webhook-gateway:reviews -->',
      'jcitizen',
    );
    await comment(bitbucket, { extra: { mode: 'update' }, bot: 'review-bot' });
    expect(bitbucket.comments.find((c) => c.id === quoted.id)?.raw).toBe(
      'see <!-- webhook-gateway:reviews -->',
    );
    expect(live(bitbucket)).toHaveLength(2);
  });

  it('a refused token fails naming platforms.bitbucket.token, never the token', async () => {
    const bitbucket = await startFake();
    const error = (await comment(bitbucket, { token: 'wrong-bitbucket-token' }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toBe(
      'bitbucket_comment: POST /repositories/brydzewski/foo/pullrequests/1/comments failed: Bitbucket answered HTTP 401: Access token expired or invalid (check platforms.bitbucket.token)',
    );
    expect(error.message).not.toContain('wrong-bitbucket-token');
  });

  it('fails a Data Center payload without platforms.bitbucket.data_center, naming the key', async () => {
    const bitbucket = await startFake();
    await expect(
      comment(bitbucket, { payload: fixture('bitbucket/pr_opened.json') }),
    ).rejects.toThrow(
      'bitbucket_comment: cannot deliver: platforms.bitbucket.data_center.base_url is not set',
    );
    expect(bitbucket.requests).toHaveLength(0);
  });
});

describe('bitbucket_review', () => {
  const marker = '[//]: # (<!-- webhook-gateway:delivery bb-delivery-1 -->)';

  it('posts each line comment inline on its line, then the summary with the others as text', async () => {
    const bitbucket = await startFake();
    const outcome = await review(bitbucket, {
      summary: 'Two remarks.',
      lineComments: [
        { path: 'src/app.py', line: 4, body: 'off by one' },
        { path: 'src/app.py', line: 99, body: 'outside the hunk' },
      ],
    });
    expect(outcome).toEqual({ onLines: 1, moved: 1, summaryComments: 1 });
    expect(bitbucket.comments).toMatchObject([
      { inline: { path: 'src/app.py', to: 4 }, raw: `off by one\n\n${marker}` },
      {
        raw: `Two remarks.\n\n**Comments on lines this diff does not show**\n\n- \`src/app.py:99\` — outside the hunk\n\n${marker}`,
      },
    ]);
    expect(bitbucket.comments[1]?.inline).toBeUndefined();
    expect(bitbucket.requests.map((r) => `${r.method} ${r.url}`).slice(0, 2)).toEqual([
      'GET /2.0/repositories/brydzewski/foo/pullrequests/1/diff',
      'GET /2.0/repositories/brydzewski/foo/diff/pr-1',
    ]);
  });

  it('moves an inline comment Bitbucket refuses into the summary', async () => {
    const bitbucket = await startFake();
    bitbucket.failNext((r) => r.body.includes('"inline"'), {
      status: 400,
      body: { type: 'error', error: { message: 'invalid inline' } },
    });
    const outcome = await review(bitbucket, {
      lineComments: [{ path: 'src/app.py', line: 2, body: 'x' }],
    });
    expect(outcome).toEqual({ onLines: 0, moved: 1, summaryComments: 1 });
    expect(bitbucket.comments.map((c) => c.raw.split('\n')[0])).toEqual(['Looks good.']);
  });

  it('check: true sets a SUCCESSFUL build status on the head commit, linking to the pull request', async () => {
    const bitbucket = await startFake();
    await review(bitbucket, { extra: { check: true } });
    expect(bitbucket.statuses).toEqual([
      {
        repo: 'brydzewski/foo',
        commit: '507a576e59b3',
        key: 'webhook-gateway/reviews',
        name: 'webhook-gateway/reviews',
        state: 'SUCCESSFUL',
        url: 'https://bitbucket.org/brydzewski/foo/pull-requests/1',
        description: 'Reviewed',
      },
    ]);
  });

  it("check: true sets no status when the summary cannot be posted (the delivery's end does)", async () => {
    const bitbucket = await startFake();
    bitbucket.failNext((r) => r.method === 'POST' && r.url.endsWith('/comments'), {
      status: 403,
      body: { type: 'error', error: { message: 'no write access' } },
    });
    await expect(review(bitbucket, { extra: { check: true } })).rejects.toThrow('HTTP 403');
    expect(bitbucket.statuses).toEqual([]);
  });
});
