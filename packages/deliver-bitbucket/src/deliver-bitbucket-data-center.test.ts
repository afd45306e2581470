/**
 * `bitbucket_comment` and `bitbucket_review` on a Bitbucket Data Center pull request: the
 * recorded `pr:opened` payload, delivered against a fake Data Center that keeps comments with
 * their versions, anchors and build statuses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { deliverRequest, fakeDelivery } from '@webhook-gateway/target-kit/testing';
import type { LineComment, ReviewConclusionValue } from '@webhook-gateway/core';
import { dataCenterApi } from './data-center-api.js';
import { deliverBitbucketComment } from './deliver-bitbucket-comment.js';
import { deliverBitbucketReview } from './deliver-bitbucket-review.js';
import { bitbucketOptionsSchema, bitbucketSettingsSchema } from './index.js';
import { dataCenterConnection } from './settings.js';
import {
  OUT_OF_DATE_EDIT,
  startFakeBitbucketDataCenter,
  type FakeBitbucketDataCenter,
} from './test-support/fake-bitbucket-data-center.js';
import { fixture } from './test-support/fixtures.js';

const TOKEN = 'data-center-http-token-0123';
/** PROJ/repository#1, head ef8755f…, as the recorded payload names it. */
const OPENED = fixture('bitbucket/pr_opened.json');
const PULL = 'PROJ/repository#1';
const HEAD = 'ef8755f06ee4b28c96a847a95cb8ec8ed6ddd1ca';
const COMMENTS = '/rest/api/1.0/projects/PROJ/repos/repository/pull-requests/1/comments';

/** `src/app.py`: line 1 context, 2 and 3 added, 4 context (line 2 of the old file removed). */
const DIFF = [
  'diff --git a/src/app.py b/src/app.py',
  'index 1111111..2222222 100644',
  '--- a/src/app.py',
  '+++ b/src/app.py',
  '@@ -1,3 +1,4 @@',
  ' import os',
  '-old = 1',
  '+new = 2',
  '+more = 3',
  ' print(new)',
  '',
].join('\n');

let fake: FakeBitbucketDataCenter | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function startFake(pageSize?: number): Promise<FakeBitbucketDataCenter> {
  fake = await startFakeBitbucketDataCenter({
    token: TOKEN,
    bot: 'review-bot',
    pulls: { [PULL]: { diff: DIFF } },
    ...(pageSize ? { pageSize } : {}),
  });
  return fake;
}

interface Setup {
  summary?: string;
  lineComments?: LineComment[];
  extra?: Record<string, unknown>;
  deliveryId?: string;
  bot?: string;
  token?: string;
  conclusion?: ReviewConclusionValue;
}

function request(setup: Setup) {
  const made = deliverRequest({
    answer: setup.summary ?? 'Looks good.',
    lineComments: setup.lineComments ?? [],
    extra: setup.extra ?? {},
    log: capturingLogger().log,
    delivery: fakeDelivery({
      route: 'reviews',
      payload: OPENED,
      deliveryId: setup.deliveryId ?? 'dc-delivery-1',
      maxAttempts: 1,
    }),
  });
  return setup.conclusion ? { ...made, conclusion: { value: setup.conclusion } } : made;
}

function settings(server: FakeBitbucketDataCenter, setup: Setup) {
  return bitbucketSettingsSchema.parse({
    data_center: {
      base_url: server.serverUrl,
      token: setup.token ?? TOKEN,
      ...(setup.bot ? { bot: setup.bot } : {}),
    },
  });
}

const options = bitbucketOptionsSchema.parse({ max_retry_after_s: 0.05 });
const comment = (server: FakeBitbucketDataCenter, setup: Setup = {}) =>
  deliverBitbucketComment(request(setup), settings(server, setup), options);
const review = (server: FakeBitbucketDataCenter, setup: Setup = {}) =>
  deliverBitbucketReview(request(setup), settings(server, setup), options);
const calls = (server: FakeBitbucketDataCenter) =>
  server.requests.map((r) => `${r.method} ${r.url.replace(/^.*pull-requests\/1/, '')}`);
const mine = (server: FakeBitbucketDataCenter) =>
  server.comments.filter((c) => c.author.name === 'review-bot');

describe('bitbucket_comment on Bitbucket Data Center', () => {
  it("posts the answer on the payload's pull request with a Bearer token, its marker hidden as a link definition", async () => {
    const server = await startFake();
    await comment(server);
    expect(server.comments).toMatchObject([
      {
        pull: PULL,
        text: 'Looks good.\n\n[//]: # (<!-- webhook-gateway:delivery dc-delivery-1 -->)',
      },
    ]);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(server.requests[0]?.url).toBe(COMMENTS);
  });

  it("deliver_extra.repo and pr_number name another pull request than the payload's", async () => {
    fake = await startFakeBitbucketDataCenter({
      token: TOKEN,
      bot: 'review-bot',
      pulls: { [PULL]: { diff: DIFF }, 'OTHER/app#7': { diff: DIFF } },
    });
    await comment(fake, { extra: { repo: 'OTHER/app', pr_number: '7' } });
    expect(fake.comments).toMatchObject([{ pull: 'OTHER/app#7' }]);
    expect(fake.requests[0]?.url).toBe(
      '/rest/api/1.0/projects/OTHER/repos/app/pull-requests/7/comments',
    );
  });

  it('splits an answer over the limit into numbered comments Data Center accepts', async () => {
    const server = await startFake();
    const paragraph = 'word '.repeat(2_000).trim();
    await comment(server, { summary: Array.from({ length: 7 }, () => paragraph).join('\n\n') });
    expect(server.comments).toHaveLength(3);
    expect(server.comments.map((c) => c.text.slice(0, 6))).toEqual([
      '(1/3)\n',
      '(2/3)\n',
      '(3/3)\n',
    ]);
    for (const posted of server.comments) expect(posted.text.length).toBeLessThan(32_768);
  });

  it('mode: update finds its comment among the activities page by page and edits it at its version, deleting parts it no longer needs', async () => {
    const server = await startFake(2);
    for (let i = 0; i < 3; i++) server.addComment(PULL, `chatter ${i}`, 'jcitizen');
    const extra = { mode: 'update' };
    const long = Array.from({ length: 5 }, () => 'word '.repeat(2_000).trim()).join('\n\n');
    await comment(server, { extra, summary: long });
    expect(mine(server)).toHaveLength(2);

    server.requests.length = 0;
    await comment(server, { extra, summary: 'Second.', deliveryId: 'dc-delivery-2' });
    expect(mine(server)).toMatchObject([
      {
        version: 1,
        text: '[//]: # (<!-- webhook-gateway:reviews -->)\nSecond.\n\n[//]: # (<!-- webhook-gateway:delivery dc-delivery-2 -->)',
      },
    ]);
    // 5 comments, 2 a page: three pages of activities, then the edit and the delete, each at the
    // version the listing read.
    const [first, second] = [100 + 3, 100 + 4];
    expect(calls(server)).toEqual([
      'GET /activities?start=0&limit=100',
      'GET /activities?start=2&limit=100',
      'GET /activities?start=4&limit=100',
      `PUT /comments/${first}`,
      `DELETE /comments/${second}?version=0`,
    ]);
    expect(server.requests[3]?.json).toMatchObject({ version: 0 });

    await comment(server, { extra, summary: 'Third.', deliveryId: 'dc-delivery-3' });
    expect(mine(server)).toMatchObject([{ version: 2 }]);
    expect(mine(server)[0]?.text).toContain('Third.');
  });

  it('mode: update reads the comment again after a 409 (edited since it was listed) and edits it at its new version', async () => {
    const server = await startFake();
    const extra = { mode: 'update' };
    await comment(server, { extra, summary: 'First.' });
    const [living] = mine(server);
    // Someone edits it between the listing and the edit: the listing's version is stale.
    server.failNext((r) => r.method === 'PUT', OUT_OF_DATE_EDIT);
    server.requests.length = 0;
    server.editComment(living!.id, living!.text);
    await comment(server, { extra, summary: 'Second.', deliveryId: 'dc-delivery-2' });
    expect(calls(server).slice(1)).toEqual([
      `PUT /comments/${living!.id}`,
      `GET /comments/${living!.id}`,
      `PUT /comments/${living!.id}`,
    ]);
    expect(mine(server)).toMatchObject([{ version: 2 }]);
    expect(mine(server)[0]?.text).toContain('Second.');
  });

  it('the fake refuses an edit at a stale version with 409, as Data Center does', async () => {
    const server = await startFake();
    await comment(server);
    const [posted] = server.comments;
    server.editComment(posted!.id, 'edited elsewhere');
    const found = dataCenterConnection(settings(server, {}));
    if (!found.ok) throw new Error('no connection');
    const api = dataCenterApi({
      connection: found.connection,
      options,
      signal: new AbortController().signal,
      log: capturingLogger().log,
      target: 'bitbucket_comment',
    });
    await expect(api.editComment('PROJ/repository', 1, String(posted!.id), 'x', 0)).rejects.toThrow(
      /HTTP 409: You are attempting to modify a comment based on out-of-date information/,
    );
  });

  it("with data_center.bot, a person's comment quoting the marker is never edited", async () => {
    const server = await startFake();
    const quoted = server.addComment(PULL, 'see <!-- webhook-gateway:reviews -->', 'jcitizen');
    await comment(server, { extra: { mode: 'update' }, bot: 'review-bot' });
    expect(server.comments.find((c) => c.id === quoted.id)).toMatchObject({ version: 0 });
    expect(server.comments).toHaveLength(2);
  });

  it('a refused token fails naming platforms.bitbucket.data_center.token, never the token', async () => {
    const server = await startFake();
    const error = (await comment(server, { token: 'wrong-data-center-token' }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toBe(
      'bitbucket_comment: POST /projects/PROJ/repos/repository/pull-requests/1/comments failed: Bitbucket Data Center answered HTTP 401: Authentication failed. Please check your credentials and try again. (check platforms.bitbucket.data_center.token)',
    );
    expect(error.message).not.toContain('wrong-data-center-token');
  });
});

describe('bitbucket_review on Bitbucket Data Center', () => {
  const marker = '[//]: # (<!-- webhook-gateway:delivery dc-delivery-1 -->)';

  it('anchors each line comment on its line as the diff shows it, then posts the summary with the others as text', async () => {
    const server = await startFake();
    const outcome = await review(server, {
      summary: 'Three remarks.',
      lineComments: [
        { path: 'src/app.py', line: 2, body: 'name it better' },
        { path: 'src/app.py', line: 4, body: 'context remark' },
        { path: 'src/app.py', line: 40, body: 'outside the hunk' },
      ],
    });
    expect(outcome).toEqual({ onLines: 2, moved: 1, summaryComments: 1 });
    const anchor = { path: 'src/app.py', fileType: 'TO', diffType: 'EFFECTIVE' };
    expect(server.comments).toMatchObject([
      { anchor: { ...anchor, line: 2, lineType: 'ADDED' }, text: `name it better\n\n${marker}` },
      { anchor: { ...anchor, line: 4, lineType: 'CONTEXT' }, text: `context remark\n\n${marker}` },
      {
        text: `Three remarks.\n\n**Comments on lines this diff does not show**\n\n- \`src/app.py:40\` — outside the hunk\n\n${marker}`,
      },
    ]);
    expect(server.comments[2]?.anchor).toBeUndefined();
    expect(calls(server)[0]).toBe('GET .diff');
    expect(server.requests[0]?.headers.accept).toContain('text/plain');
  });

  it('moves a line comment Data Center refuses (400, 409) into the summary', async () => {
    const server = await startFake();
    server.failNext((r) => r.body.includes('"anchor"'), {
      status: 409,
      body: { errors: [{ context: null, message: 'archived', exceptionName: null }] },
    });
    const outcome = await review(server, {
      lineComments: [{ path: 'src/app.py', line: 3, body: 'x' }],
    });
    expect(outcome).toEqual({ onLines: 0, moved: 1, summaryComments: 1 });
    expect(server.comments.map((c) => c.text.split('\n')[0])).toEqual(['Looks good.']);
  });

  it('check: true sets a build status on the head commit, linking to the pull request on the server', async () => {
    const server = await startFake();
    await review(server, { extra: { check: true } });
    await review(server, { extra: { check: true }, conclusion: 'failure' });
    expect(server.statuses).toEqual(
      [
        ['SUCCESSFUL', 'Reviewed'],
        ['FAILED', 'Problems found'],
      ].map(([state, description]) => ({
        repo: 'PROJ/repository',
        commit: HEAD,
        key: 'webhook-gateway/reviews',
        name: 'webhook-gateway/reviews',
        state,
        url: `${server.serverUrl}/projects/PROJ/repos/repository/pull-requests/1`,
        description,
      })),
    );
    expect(server.requests.at(-1)?.url).toBe(
      `/rest/api/1.0/projects/PROJ/repos/repository/commits/${HEAD}/builds`,
    );
  });
});
