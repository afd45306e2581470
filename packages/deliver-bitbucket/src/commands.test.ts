/**
 * Command routes on Bitbucket Cloud, through a whole gateway: the commenter's permission asked of
 * the fake Bitbucket before the agent runs, and the loop guard by the token's own account (told by
 * `GET /user`, or `bot` for an access token) and by the marker. Data Center's:
 * `commands-data-center.test.ts`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import bitbucketAuth, { signBitbucketBody } from '@webhook-gateway/auth-bitbucket';
import { gatewayMarker, type JsonObject } from '@webhook-gateway/core';
import plugin from './index.js';
import { startFakeBitbucket, type FakeBitbucket } from './test-support/fake-bitbucket.js';
import { addedFileDiff } from './test-support/fixtures.js';
import { startCommandGateway, stoppedAfterTest } from '@webhook-gateway/target-kit/testing';

const TOKEN = 'bitbucket-token-for-commands';
const SECRET = 'bitbucket-command-secret';
const WRITER = { uuid: '{w-1}', account_id: '557058:w', nickname: 'writer' };
const READER = { uuid: '{r-1}', account_id: '557058:r', nickname: 'reader' };
const TOKEN_USER = { uuid: '{b-1}', account_id: '557058:b', nickname: 'review-bot' };

const started = stoppedAfterTest();
afterEach(() => started.stopAll());

async function start(
  options: { tokenIsAdmin?: boolean; tokenUser?: typeof TOKEN_USER; bot?: string } = {},
) {
  const bitbucket = started.keep(
    await startFakeBitbucket({
      token: TOKEN,
      bot: { uuid: '{b-1}', nickname: 'review-bot' },
      pulls: { 'team/app#1': { diff: addedFileDiff('cache.ts', 1, 3) } },
      permissions: { [WRITER.uuid]: 'write', [READER.uuid]: 'read' },
      ...(options.tokenIsAdmin !== undefined ? { tokenIsAdmin: options.tokenIsAdmin } : {}),
      ...(options.tokenUser ? { tokenUser: options.tokenUser } : {}),
    }),
  );
  const running = started.keep(
    await startCommandGateway({
      plugins: [bitbucketAuth, plugin],
      route: {
        secret: SECRET,
        events: ['pullrequest:comment_created'],
        deliver: 'bitbucket_comment',
      },
      platforms: {
        bitbucket: {
          base_url: bitbucket.apiBase,
          token: TOKEN,
          ...(options.bot ? { bot: options.bot } : {}),
        },
      },
    }),
  );
  return { bitbucket, running };
}

let sent = 0;
function signed(event: string, payload: JsonObject) {
  const deliveryId = `bb-cmd-${++sent}`;
  const body = Buffer.from(JSON.stringify(payload));
  return {
    deliveryId,
    body,
    headers: {
      'X-Event-Key': event,
      'X-Request-UUID': deliveryId,
      'X-Hub-Signature': signBitbucketBody(body, SECRET),
    },
  };
}

/** A new comment on pull request 1, as Bitbucket Cloud sends `pullrequest:comment_created`. */
function cloudComment(user: JsonObject, raw: string) {
  return signed('pullrequest:comment_created', {
    actor: { type: 'user', display_name: String(user.nickname), ...user },
    repository: { type: 'repository', full_name: 'team/app', name: 'app' },
    pullrequest: { id: 1, title: 'Add a cache', state: 'OPEN' },
    comment: {
      id: 500 + sent,
      content: { raw, markup: 'markdown', html: '' },
      user: { type: 'user', ...user },
    },
  });
}

const permissionAsks = (bitbucket: FakeBitbucket) =>
  bitbucket.requests.filter((r) => r.url.includes('/permissions/')).map((r) => r.url);

describe('Bitbucket Cloud command routes through a running gateway', () => {
  it("a writer's /review runs and answers on the pull request", async () => {
    const { bitbucket, running } = await start();
    const { deliveryId, body, headers } = cloudComment(WRITER, '/review the cache');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.lastError).toBeNull();
    expect(record.status).toBe('delivered');
    expect(running.prompts).toEqual(['Asked: the cache']);
    expect(permissionAsks(bitbucket)).toEqual([
      '/2.0/workspaces/team/permissions/repositories/app?q=user.uuid%3D%22%7Bw-1%7D%22',
    ]);
    expect(bitbucket.comments).toHaveLength(1);
    expect(bitbucket.comments[0]?.raw).toContain('Looked at it.');
  });

  it("a reader's command ends denied, without a run or a comment", async () => {
    const { bitbucket, running } = await start();
    const { deliveryId, body, headers } = cloudComment(READER, '@review-bot look');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.status).toBe('denied');
    expect(record.lastError).toBe(
      "permission: reader has read on the repository; the route's commands need write",
    );
    expect(running.prompts).toEqual([]);
    expect(bitbucket.comments).toEqual([]);
  });

  it('refuses clearly when the token may not read permissions', async () => {
    const { running } = await start({ tokenIsAdmin: false });
    const { deliveryId, body, headers } = cloudComment(WRITER, '/review');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.status).toBe('denied');
    expect(record.lastError).toContain("Bitbucket will not tell writer's permission on team/app");
    expect(record.lastError).toContain('admin on the repository');
    expect(record.lastError).not.toContain(TOKEN);
    expect(running.prompts).toEqual([]);
  });

  it("ignores the token's own account, as GET /user names it, without the marker", async () => {
    const { bitbucket, running } = await start({ tokenUser: TOKEN_USER });
    const asksAtStart = bitbucket.requests.filter((r) => r.url === '/2.0/user').length;
    expect(asksAtStart).toBe(1);
    for (const words of ['/review again', '@review-bot once more']) {
      const { body, headers } = cloudComment(TOKEN_USER, words);
      expect(await running.post(headers, body)).toBe(200);
    }
    expect(await running.store.list({})).toEqual([]);
    expect(bitbucket.requests.filter((r) => r.url === '/2.0/user')).toHaveLength(1);
    expect(permissionAsks(bitbucket)).toEqual([]);
  });

  it("knows an access token's bot user by platforms.bitbucket.bot, as /user refuses it", async () => {
    const { running } = await start({ bot: TOKEN_USER.uuid });
    const { body, headers } = cloudComment(TOKEN_USER, '/review');
    expect(await running.post(headers, body)).toBe(200);
    expect(await running.store.list({})).toEqual([]);
  });

  it('ignores a comment carrying the marker as Bitbucket keeps it, whoever wrote it', async () => {
    const { running } = await start();
    const marked = `/review\n\n[//]: # (${gatewayMarker('earlier-1')})`;
    const { body, headers } = cloudComment(WRITER, marked);
    expect(await running.post(headers, body)).toBe(200);
    expect(await running.store.list({})).toEqual([]);
  });
});
