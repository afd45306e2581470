/**
 * Signed, recorded Bitbucket Cloud webhooks in through a whole gateway: inline comments on the
 * fake Bitbucket out, and a queued review's place on the living comment while it waits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import bitbucketAuth, { signBitbucketBody } from '@webhook-gateway/auth-bitbucket';
import type { JsonObject } from '@webhook-gateway/core';
import { gate, waitFor } from '@webhook-gateway/core/testing';
import { startSignedGateway, type SignedGateway } from '@webhook-gateway/target-kit/testing';
import plugin from './index.js';
import { startFakeBitbucket, type FakeBitbucket } from './test-support/fake-bitbucket.js';
import { addedFileDiff, fixture, fixtureBytes } from './test-support/fixtures.js';
import { expectWaitingLines, ROUTE_MARKER } from './test-support/waiting-lines.js';

const TOKEN = 'bitbucket-access-token-0123';
const SECRET = 'bitbucket-webhook-secret';

let fake: FakeBitbucket | undefined;
let gateway: SignedGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  await fake?.close();
  gateway = undefined;
  fake = undefined;
});

describe('Bitbucket Cloud targets through a running gateway', () => {
  it('a recorded pullrequest:created gets inline comments, its summary and a build status', async () => {
    fake = await startFakeBitbucket({
      token: TOKEN,
      bot: { uuid: '{bot}', nickname: 'review-bot' },
      pulls: { 'brydzewski/foo#1': { diff: addedFileDiff('README.md', 1, 5) } },
    });
    gateway = await startSignedGateway({
      plugins: [bitbucketAuth, plugin],
      route: {
        secret: SECRET,
        events: ['pullrequest:created'],
        deliver: 'bitbucket_review',
        deliver_extra: { check: true },
      },
      platforms: { bitbucket: { base_url: fake.apiBase, token: TOKEN } },
      answer: {
        summary: 'One remark.',
        lineComments: [{ path: 'README.md', line: 3, body: 'typo' }],
      },
    });
    const body = fixtureBytes('bitbucket/pullrequest_created.json');
    const status = await gateway.post(
      {
        'X-Event-Key': 'pullrequest:created',
        'X-Request-UUID': 'bb-e2e-1',
        'X-Hub-Signature': signBitbucketBody(body, SECRET),
      },
      body,
    );
    expect(status).toBe(202);
    const record = await gateway.finished('bb-e2e-1');
    expect(record.lastError).toBeNull();
    expect(record.status).toBe('delivered');
    expect(fake.comments).toMatchObject([
      { pull: 'brydzewski/foo#1', inline: { path: 'README.md', to: 3 } },
      { pull: 'brydzewski/foo#1' },
    ]);
    expect(fake.comments[1]?.raw).toContain('One remark.');
    expect(fake.comments[1]?.raw).toContain('[//]: # (<!-- webhook-gateway:delivery bb-e2e-1 -->)');
    expect(fake.statuses).toMatchObject([
      { commit: '507a576e59b3', state: 'INPROGRESS', description: 'Review in progress' },
      { commit: '507a576e59b3', state: 'SUCCESSFUL', description: 'Reviewed (1 comment)' },
    ]);
  });

  it('a queued review shows its place, then the pause, at the top of the living comment', async () => {
    const slot = gate();
    fake = await startFakeBitbucket({
      token: TOKEN,
      bot: { uuid: '{bot}', nickname: 'review-bot' },
      pulls: Object.fromEntries(
        [1, 2, 3].map((id) => [`brydzewski/foo#${id}`, { diff: addedFileDiff('README.md', 1, 5) }]),
      ),
    });
    const bitbucket = fake;
    // `held` is a slow agent on pull request 2: it holds the route's one slot.
    const running = await startSignedGateway({
      plugins: [bitbucketAuth, plugin],
      route: {
        secret: SECRET,
        events: ['pullrequest:created'],
        deliver: 'bitbucket_comment',
        deliver_extra: { mode: 'update' },
        concurrency: 1,
      },
      platforms: { bitbucket: { base_url: bitbucket.apiBase, token: TOKEN } },
      answer: { summary: 'One remark.', lineComments: [] },
      hold: (deliveryId) => (deliveryId === 'held' ? slot.opened : Promise.resolve()),
    });
    gateway = running;
    /** The recorded pullrequest:created, about pull request `id` of brydzewski/foo. */
    const post = (deliveryId: string, id: number) => {
      const payload = fixture('bitbucket/pullrequest_created.json');
      const pullrequest = { ...(payload.pullrequest as JsonObject), id };
      const body = Buffer.from(JSON.stringify({ ...payload, pullrequest }));
      return running.post(
        {
          'X-Event-Key': 'pullrequest:created',
          'X-Request-UUID': deliveryId,
          'X-Hub-Signature': signBitbucketBody(body, SECRET),
        },
        body,
      );
    };
    const comments = (id: number) =>
      bitbucket.comments.filter((c) => c.pull === `brydzewski/foo#${id}` && !c.deleted);

    expect(await post('first', 1)).toBe(202);
    expect((await running.finished('first')).status).toBe('delivered');
    const previous = comments(1)[0]?.raw ?? '';
    expect(previous.startsWith(ROUTE_MARKER)).toBe(true);

    expect(await post('held', 2)).toBe(202);
    await waitFor(
      async () => (await running.store.list({})).some((r) => r.status === 'running'),
      'the held run to start',
    );
    // Pull request 3 (no comment yet) waits 1st, pull request 1 waits 2nd.
    expect(await post('other', 3)).toBe(202);
    expect(await post('second', 1)).toBe(202);
    await expectWaitingLines(running.store, () => comments(1).map((c) => c.raw), previous);
    // Told in order of place: 3 was told first, and has no comment to show it on.
    expect(comments(3)).toEqual([]);

    slot.open();
    expect((await running.finished('second')).status).toBe('delivered');
    expect(comments(1)).toHaveLength(1);
    expect(comments(1)[0]?.raw).toContain('delivery second');
    expect(comments(1)[0]?.raw).not.toContain('webhook-gateway:waiting');
    expect((await running.finished('other')).status).toBe('delivered');
    expect(comments(3)).toHaveLength(1);
    expect(comments(3)[0]?.raw).not.toContain('webhook-gateway:waiting');
  });
});
