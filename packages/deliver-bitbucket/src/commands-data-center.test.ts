/**
 * Command routes on Bitbucket Data Center, through a whole gateway: the commenter's repository
 * permission asked of the fake Data Center (`GET /users` with a permission filter) before the
 * agent runs, and the loop guard by the token's own user (the `X-AUSERNAME` header, or
 * `data_center.bot`) and by the marker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import bitbucketAuth, { signBitbucketBody } from '@webhook-gateway/auth-bitbucket';
import { gatewayMarker, type JsonObject } from '@webhook-gateway/core';
import plugin from './index.js';
import {
  startFakeBitbucketDataCenter,
  type FakeBitbucketDataCenter,
} from './test-support/fake-bitbucket-data-center.js';
import { addedFileDiff, fixtureBytes } from './test-support/fixtures.js';
import { startCommandGateway, stoppedAfterTest } from '@webhook-gateway/target-kit/testing';

const TOKEN = 'data-center-token-for-commands';
const SECRET = 'bitbucket-dc-command-secret';
const TOKEN_USER = 'review-bot';

const started = stoppedAfterTest();
afterEach(() => started.stopAll());

async function start(
  options: {
    tokenMayListUsers?: boolean;
    tokenUser?: string;
    bot?: string;
    commandPermission?: string;
    retries?: { maxAttempts: number; backoffMs: number };
  } = {},
) {
  const dataCenter = started.keep(
    await startFakeBitbucketDataCenter({
      token: TOKEN,
      bot: options.tokenUser ?? TOKEN_USER,
      pulls: { 'PROJ/repository#1': { diff: addedFileDiff('README.md', 1, 3) } },
      // `Writer` holds write by a grant of its own; the filter matches names in any case.
      permissions: { Writer: 'REPO_WRITE', reader: 'REPO_READ', lead: 'REPO_ADMIN' },
      ...(options.tokenMayListUsers !== undefined
        ? { tokenMayListUsers: options.tokenMayListUsers }
        : {}),
    }),
  );
  const running = started.keep(
    await startCommandGateway({
      plugins: [bitbucketAuth, plugin],
      route: {
        secret: SECRET,
        events: ['pr:comment:added'],
        deliver: 'bitbucket_comment',
        ...(options.commandPermission ? { command_permission: options.commandPermission } : {}),
      },
      platforms: {
        bitbucket: {
          data_center: {
            base_url: dataCenter.serverUrl,
            token: TOKEN,
            ...(options.bot ? { bot: options.bot } : {}),
          },
        },
      },
      ...(options.retries ? { retries: options.retries } : {}),
    }),
  );
  return { dataCenter, running };
}

/** A new comment by `name` on pull request 1, as Data Center sends `pr:comment:added`. */
let sent = 0;
function commentBy(name: string, text: string) {
  const deliveryId = `dc-cmd-${++sent}`;
  const opened = JSON.parse(fixtureBytes('bitbucket/pr_opened.json').toString()) as JsonObject;
  const author = {
    name,
    slug: name.toLowerCase(),
    id: 10 + sent,
    displayName: name,
    emailAddress: `${name.toLowerCase()}@example.com`,
    active: true,
    type: 'NORMAL',
  };
  const payload = {
    eventKey: 'pr:comment:added',
    date: '2017-09-19T11:16:27+1000',
    actor: author,
    pullRequest: opened.pullRequest,
    comment: { id: 200 + sent, version: 0, text, author, createdDate: 1505783787000 },
  };
  const body = Buffer.from(JSON.stringify(payload));
  return {
    deliveryId,
    body,
    headers: {
      'X-Event-Key': 'pr:comment:added',
      'X-Request-Id': deliveryId,
      'X-Hub-Signature': signBitbucketBody(body, SECRET),
    },
  };
}

const userAsks = (dataCenter: FakeBitbucketDataCenter) =>
  dataCenter.requests.filter((r) => r.url.startsWith('/rest/api/1.0/users')).map((r) => r.url);
const accountAsks = (dataCenter: FakeBitbucketDataCenter) =>
  dataCenter.requests.filter((r) => r.url === '/rest/api/1.0/application-properties');

describe('Bitbucket Data Center command routes through a running gateway', () => {
  it("a writer's /review runs and answers on the pull request, after one permission ask", async () => {
    const { dataCenter, running } = await start();
    const { deliveryId, body, headers } = commentBy('Writer', '/review the cache');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.lastError).toBeNull();
    expect(record.status).toBe('delivered');
    expect(running.prompts).toEqual(['Asked: the cache']);
    expect(userAsks(dataCenter)).toEqual([
      '/rest/api/1.0/users?filter=Writer&permission.1=REPO_WRITE&permission.1.projectKey=PROJ&permission.1.repositorySlug=repository&limit=100&start=0',
    ]);
    expect(dataCenter.comments).toHaveLength(1);
    expect(dataCenter.comments[0]?.text).toContain('Looked at it.');
  });

  it("a reader's command ends denied naming what it has, without a run or a comment", async () => {
    const { dataCenter, running } = await start();
    const { deliveryId, body, headers } = commentBy('reader', '@review-bot look');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.status).toBe('denied');
    expect(record.lastError).toBe(
      "permission: reader has read on the repository; the route's commands need write",
    );
    expect(running.prompts).toEqual([]);
    expect(dataCenter.comments).toEqual([]);
    expect(userAsks(dataCenter).map((url) => /permission\.1=(\w+)/.exec(url)?.[1])).toEqual([
      'REPO_WRITE',
      'REPO_READ',
    ]);
  });

  it('denies a commenter the repository grants nothing, saying none', async () => {
    const { running } = await start();
    const { deliveryId, body, headers } = commentBy('stranger', '/review');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.status).toBe('denied');
    expect(record.lastError).toContain('stranger has none on the repository');
  });

  it('refuses clearly when Data Center will not list users for the token', async () => {
    const { running } = await start({ tokenMayListUsers: false });
    const { deliveryId, body, headers } = commentBy('Writer', '/review');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.status).toBe('denied');
    expect(record.lastError).toContain(
      "Bitbucket Data Center will not tell writer's permission on PROJ/repository (HTTP 403)",
    );
    expect(record.lastError).toContain('platforms.bitbucket.data_center.token');
    expect(record.lastError).not.toContain(TOKEN);
    expect(running.prompts).toEqual([]);
  });

  it('asks REPO_ADMIN for an admin route: an admin runs, a writer is told it has write', async () => {
    const { dataCenter, running } = await start({ commandPermission: 'admin' });
    const lead = commentBy('lead', '/review');
    expect(await running.post(lead.headers, lead.body)).toBe(202);
    expect((await running.finished(lead.deliveryId)).status).toBe('delivered');
    const writer = commentBy('Writer', '/review');
    expect(await running.post(writer.headers, writer.body)).toBe(202);
    const record = await running.finished(writer.deliveryId);
    expect(record.status).toBe('denied');
    expect(record.lastError).toBe(
      "permission: writer has write on the repository; the route's commands need admin",
    );
    expect(userAsks(dataCenter).map((url) => /permission\.1=(\w+)/.exec(url)?.[1])).toEqual([
      'REPO_ADMIN',
      'REPO_ADMIN',
      'REPO_WRITE',
    ]);
    expect(running.prompts).toHaveLength(1);
  });

  it('retries a server error, then runs the command once Data Center answers', async () => {
    const { dataCenter, running } = await start({ retries: { maxAttempts: 2, backoffMs: 1 } });
    dataCenter.failNext((r) => r.url.startsWith('/rest/api/1.0/users'), {
      status: 503,
      body: 'Service Unavailable',
    });
    const { deliveryId, body, headers } = commentBy('Writer', '/review');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.status).toBe('delivered');
    expect(record.attempts).toBe(2);
    expect(record.attemptLog[0]?.error).toContain('503');
    expect(running.prompts).toEqual(['Asked: ']);
  });

  it("ignores the token's own user, as X-AUSERNAME names it, without the marker", async () => {
    const { dataCenter, running } = await start();
    expect(accountAsks(dataCenter)).toHaveLength(1);
    for (const words of ['/review again', '@review-bot once more']) {
      const { body, headers } = commentBy(TOKEN_USER, words);
      expect(await running.post(headers, body)).toBe(200);
    }
    expect(await running.store.list({})).toEqual([]);
    expect(accountAsks(dataCenter)).toHaveLength(1);
    expect(userAsks(dataCenter)).toEqual([]);
  });

  it('knows the account by platforms.bitbucket.data_center.bot too', async () => {
    const { running } = await start({ bot: 'deploy-bot' });
    const { body, headers } = commentBy('deploy-bot', '/review');
    expect(await running.post(headers, body)).toBe(200);
    expect(await running.store.list({})).toEqual([]);
  });

  it('ignores a comment carrying the marker as Bitbucket keeps it, whoever wrote it', async () => {
    const { running } = await start();
    const marked = `/review\n\n[//]: # (${gatewayMarker('earlier-1')})`;
    const { body, headers } = commentBy('Writer', marked);
    expect(await running.post(headers, body)).toBe(200);
    expect(await running.store.list({})).toEqual([]);
  });
});
