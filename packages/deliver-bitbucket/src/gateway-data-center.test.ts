/**
 * A signed, recorded Bitbucket Data Center webhook (`pr:opened`) through a whole gateway:
 * anchored line comments, the summary and build statuses on the fake Data Center out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@webhook-gateway/core/testing';
import bitbucketAuth, { signBitbucketBody } from '@webhook-gateway/auth-bitbucket';
import plugin from './index.js';
import {
  startFakeBitbucketDataCenter,
  type FakeBitbucketDataCenter,
} from './test-support/fake-bitbucket-data-center.js';
import { addedFileDiff, fixtureBytes } from './test-support/fixtures.js';
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
});
