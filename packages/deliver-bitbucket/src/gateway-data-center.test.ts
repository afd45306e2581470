/**
 * Signed, recorded Bitbucket Data Center webhooks (`pr:opened`) through a whole gateway:
 * anchored line comments, the summary and build statuses on the fake Data Center out, and a
 * queued review's place on the living comment while it waits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '@webhook-gateway/core';
import { gate, waitFor } from '@webhook-gateway/core/testing';
import bitbucketAuth, { signBitbucketBody } from '@webhook-gateway/auth-bitbucket';
import plugin from './index.js';
import {
  OUT_OF_DATE_EDIT,
  startFakeBitbucketDataCenter,
  type FakeBitbucketDataCenter,
} from './test-support/fake-bitbucket-data-center.js';
import { addedFileDiff, fixture, fixtureBytes } from './test-support/fixtures.js';
import { expectWaitingLines, ROUTE_MARKER } from './test-support/waiting-lines.js';
import { startSignedGateway, type SignedGateway } from '@webhook-gateway/target-kit/testing';

const TOKEN = 'data-center-http-token-0123';
const SECRET = 'bitbucket-webhook-secret';
const HEAD = 'ef8755f06ee4b28c96a847a95cb8ec8ed6ddd1ca';

let fake: FakeBitbucketDataCenter | undefined;
let gateway: SignedGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  await fake?.close();
  gateway = undefined;
  fake = undefined;
});

async function start(): Promise<{ fake: FakeBitbucketDataCenter; gateway: SignedGateway }> {
  fake = await startFakeBitbucketDataCenter({
    token: TOKEN,
    bot: 'review-bot',
    pulls: { 'PROJ/repository#1': { diff: addedFileDiff('README.md', 1, 5) } },
  });
  gateway = await startSignedGateway({
    plugins: [bitbucketAuth, plugin],
    route: {
      secret: SECRET,
      events: ['pr:opened'],
      deliver: 'bitbucket_review',
      deliver_extra: { check: true },
    },
    platforms: { bitbucket: { data_center: { base_url: fake.serverUrl, token: TOKEN } } },
    answer: {
      summary: 'One remark.',
      lineComments: [{ path: 'README.md', line: 3, body: 'typo' }],
    },
  });
  return { fake, gateway };
}

async function postOpened(to: SignedGateway, deliveryId: string): Promise<number> {
  const body = fixtureBytes('bitbucket/pr_opened.json');
  return to.post(
    {
      'X-Event-Key': 'pr:opened',
      'X-Request-Id': deliveryId,
      'X-Hub-Signature': signBitbucketBody(body, SECRET),
    },
    body,
  );
}

describe('Bitbucket Data Center targets through a running gateway', () => {
  it('a recorded pr:opened gets an anchored line comment, its summary and a build status', async () => {
    const { fake, gateway } = await start();
    expect(await postOpened(gateway, 'dc-e2e-1')).toBe(202);
    const record = await gateway.finished('dc-e2e-1');
    expect(record.lastError).toBeNull();
    expect(record.status).toBe('delivered');
    expect(fake.comments).toMatchObject([
      {
        pull: 'PROJ/repository#1',
        anchor: { path: 'README.md', line: 3, lineType: 'ADDED', fileType: 'TO' },
      },
      { pull: 'PROJ/repository#1' },
    ]);
    expect(fake.comments[1]?.text).toContain('One remark.');
    expect(fake.comments[1]?.text).toContain(
      '[//]: # (<!-- webhook-gateway:delivery dc-e2e-1 -->)',
    );
    expect(fake.statuses).toMatchObject([
      { commit: HEAD, state: 'INPROGRESS', description: 'Review in progress' },
      { commit: HEAD, state: 'SUCCESSFUL', description: 'Reviewed (1 comment)' },
    ]);
  });

  it('a delivery that fails for good ends its build status FAILED', async () => {
    const { fake, gateway } = await start();
    // The token may not comment: the first comment (on its line) is refused, nothing is posted.
    fake.failNext((r) => r.method === 'POST' && r.url.endsWith('/comments'), {
      status: 403,
      body: { errors: [{ context: null, message: 'no write access', exceptionName: null }] },
    });
    expect(await postOpened(gateway, 'dc-e2e-2')).toBe(202);
    const record = await gateway.finished('dc-e2e-2');
    expect(record.status).toBe('failed');
    expect(record.lastError).toContain('Bitbucket Data Center answered HTTP 403: no write access');
    expect(fake.comments).toEqual([]);
    // The delivery's end sets the last status, after the journal says it failed.
    const states = await waitFor(
      () => fake.statuses.length === 2 && fake.statuses.map((status) => status.state),
      'the failure status',
      { describe: () => JSON.stringify(fake.statuses) },
    );
    expect(states).toEqual(['INPROGRESS', 'FAILED']);
    expect(fake.statuses[1]?.description).toBe('The review failed');
  });

  it('a queued review shows its place, then the pause, at the top of the living comment', async () => {
    const slot = gate();
    fake = await startFakeBitbucketDataCenter({
      token: TOKEN,
      bot: 'review-bot',
      pulls: Object.fromEntries(
        [1, 2, 3].map((id) => [
          `PROJ/repository#${id}`,
          { diff: addedFileDiff('README.md', 1, 5) },
        ]),
      ),
    });
    const server = fake;
    // `held` is a slow agent on pull request 2: it holds the route's one slot.
    const running = await startSignedGateway({
      plugins: [bitbucketAuth, plugin],
      route: {
        secret: SECRET,
        events: ['pr:opened'],
        deliver: 'bitbucket_comment',
        deliver_extra: { mode: 'update' },
        concurrency: 1,
      },
      platforms: { bitbucket: { data_center: { base_url: server.serverUrl, token: TOKEN } } },
      answer: { summary: 'One remark.', lineComments: [] },
      hold: (deliveryId) => (deliveryId === 'held' ? slot.opened : Promise.resolve()),
    });
    gateway = running;
    /** The recorded pr:opened, about pull request `id` of PROJ/repository. */
    const post = (deliveryId: string, id: number) => {
      const payload = fixture('bitbucket/pr_opened.json');
      const pullRequest = { ...(payload.pullRequest as JsonObject), id };
      const body = Buffer.from(JSON.stringify({ ...payload, pullRequest }));
      return running.post(
        {
          'X-Event-Key': 'pr:opened',
          'X-Request-Id': deliveryId,
          'X-Hub-Signature': signBitbucketBody(body, SECRET),
        },
        body,
      );
    };
    const comments = (id: number) =>
      server.comments.filter((c) => c.pull === `PROJ/repository#${id}`);

    expect(await post('first', 1)).toBe(202);
    expect((await running.finished('first')).status).toBe('delivered');
    const [living] = comments(1);
    const previous = living?.text ?? '';
    expect(previous.startsWith(ROUTE_MARKER)).toBe(true);

    expect(await post('held', 2)).toBe(202);
    await waitFor(
      async () => (await running.store.list({})).some((r) => r.status === 'running'),
      'the held run to start',
    );
    // The line's first edit is refused as out of date: the comment is read again, edited at
    // the version it has now.
    server.failNext((r) => r.method === 'PUT', OUT_OF_DATE_EDIT);
    server.requests.length = 0;
    // Pull request 3 (no comment yet) waits 1st, pull request 1 waits 2nd.
    expect(await post('other', 3)).toBe(202);
    expect(await post('second', 1)).toBe(202);
    const texts = () => comments(1).map((c) => c.text);
    await expectWaitingLines(running.store, texts, previous, () => {
      // The queued line's edit was refused once, read again and made.
      const edits = server.requests
        .filter((r) => r.url.includes(`/comments/${living?.id}`))
        .map((r) => r.method);
      expect(edits).toEqual(['PUT', 'GET', 'PUT']);
      // Told in order of place: 3 was told first, and has no comment to show it on.
      expect(comments(3)).toEqual([]);
    });

    slot.open();
    expect((await running.finished('second')).status).toBe('delivered');
    expect(comments(1)).toHaveLength(1);
    expect(comments(1)[0]?.text).toContain('delivery second');
    expect(comments(1)[0]?.text).not.toContain('webhook-gateway:waiting');
    expect((await running.finished('other')).status).toBe('delivered');
    expect(comments(3)).toHaveLength(1);
    expect(comments(3)[0]?.text).not.toContain('webhook-gateway:waiting');
  });
});
