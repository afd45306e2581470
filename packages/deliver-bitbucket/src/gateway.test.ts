/** A signed, recorded Bitbucket Cloud webhook in, inline comments on the fake Bitbucket out. */
import { afterEach, describe, expect, it } from 'vitest';
import bitbucketAuth, { signBitbucketBody } from '@webhook-gateway/auth-bitbucket';
import { startSignedGateway, type SignedGateway } from '@webhook-gateway/target-kit/testing';
import plugin from './index.js';
import { startFakeBitbucket, type FakeBitbucket } from './test-support/fake-bitbucket.js';
import { addedFileDiff, fixtureBytes } from './test-support/fixtures.js';

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
});
