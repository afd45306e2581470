/**
 * Command routes on Gitea, through a whole gateway: the commenter's permission asked of the fake
 * Gitea before the agent runs, and the loop guard by the token's own account and by the marker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import giteaAuth, { signGiteaBody } from '@webhook-gateway/auth-gitea';
import { gatewayMarker } from '@webhook-gateway/core';
import plugin from './index.js';
import { startFakeGitea, type FakeGitea } from './test-support/fake-gitea.js';
import { addedFileDiff } from './test-support/fixtures.js';
import { startCommandGateway, stoppedAfterTest } from '@webhook-gateway/target-kit/testing';

const TOKEN = 'gitea-token-for-commands';
const SECRET = 'gitea-command-secret';
const PULL = 'jcitizen/my-repo#1';

const started = stoppedAfterTest();
afterEach(() => started.stopAll());

async function start(options: { tokenIsAdmin?: boolean; bot?: string } = {}) {
  const gitea = started.keep(
    await startFakeGitea({
      token: TOKEN,
      login: 'review-bot',
      pulls: { [PULL]: { diff: addedFileDiff('LICENSE', 1, 3) } },
      permissions: { writer: 'write', reader: 'read', owner: 'owner' },
      ...(options.tokenIsAdmin !== undefined ? { tokenIsAdmin: options.tokenIsAdmin } : {}),
    }),
  );
  const running = started.keep(
    await startCommandGateway({
      plugins: [giteaAuth, plugin],
      route: { secret: SECRET, events: ['issue_comment'], deliver: 'gitea_comment' },
      platforms: {
        gitea: { base_url: gitea.url, token: TOKEN, ...(options.bot ? { bot: options.bot } : {}) },
      },
    }),
  );
  return { gitea, running };
}

/** A new comment on pull request 1, as Gitea sends it (`issue_comment`, `is_pull: true`). */
let sent = 0;
function comment(login: string, body: string) {
  const deliveryId = `gitea-cmd-${++sent}`;
  const bytes = Buffer.from(
    JSON.stringify({
      action: 'created',
      is_pull: true,
      issue: {
        id: 11,
        number: 1,
        title: 'Add a license',
        pull_request: { merged: false, merged_at: null },
      },
      comment: { id: 300 + sent, body, user: { id: 5, login } },
      repository: { id: 1, name: 'my-repo', full_name: 'jcitizen/my-repo' },
      sender: { id: 5, login },
    }),
  );
  return {
    deliveryId,
    body: bytes,
    headers: {
      'X-Gitea-Event': 'issue_comment',
      'X-Gitea-Event-Type': 'pull_request_comment',
      'X-Gitea-Delivery': deliveryId,
      'X-Gitea-Signature': signGiteaBody(bytes, SECRET),
    },
  };
}

const permissionAsks = (gitea: FakeGitea) =>
  gitea.requests.filter((r) => r.url.includes('/collaborators/')).map((r) => r.url);

describe('Gitea command routes through a running gateway', () => {
  it("a writer's /review runs and answers on the pull request", async () => {
    const { gitea, running } = await start();
    const { deliveryId, body, headers } = comment('writer', '/review the license');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.lastError).toBeNull();
    expect(record.status).toBe('delivered');
    expect(record.prompt).toBe('Asked: the license');
    expect(permissionAsks(gitea)).toEqual([
      '/api/v1/repos/jcitizen/my-repo/collaborators/writer/permission',
    ]);
    expect(gitea.comments).toHaveLength(1);
    expect(gitea.comments[0]?.body).toContain('Looked at it.');
  });

  it("a reader's /review ends denied, without a run or a comment", async () => {
    const { gitea, running } = await start();
    const { deliveryId, body, headers } = comment('reader', '@review-bot have a look');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.status).toBe('denied');
    expect(record.lastError).toBe(
      "permission: reader has read on the repository; the route's commands need write",
    );
    expect(record.answer).toBeNull();
    expect(gitea.comments).toEqual([]);
  });

  it('a user Gitea does not know is denied; an owner runs', async () => {
    const { running } = await start();
    const stranger = comment('stranger', '/review');
    expect(await running.post(stranger.headers, stranger.body)).toBe(202);
    expect(await running.finished(stranger.deliveryId)).toMatchObject({
      status: 'denied',
      lastError: "permission: stranger has none on the repository; the route's commands need write",
    });
    const owner = comment('owner', '/review');
    expect(await running.post(owner.headers, owner.body)).toBe(202);
    expect((await running.finished(owner.deliveryId)).status).toBe('delivered');
  });

  it('refuses clearly when the token may not read others’ permissions', async () => {
    const { gitea, running } = await start({ tokenIsAdmin: false });
    const { deliveryId, body, headers } = comment('writer', '/review');
    expect(await running.post(headers, body)).toBe(202);
    const record = await running.finished(deliveryId);
    expect(record.status).toBe('denied');
    expect(record.lastError).toContain("Gitea will not tell writer's permission");
    expect(record.lastError).toContain('administrator of the repository');
    expect(record.lastError).not.toContain(TOKEN);
    expect(gitea.comments).toEqual([]);
  });

  it("ignores a comment by the token's own account, without the marker, asking once", async () => {
    const { gitea, running } = await start();
    const asksAtStart = gitea.requests.filter((r) => r.url === '/api/v1/user').length;
    for (const words of ['/review again', '@review-bot once more']) {
      const { body, headers } = comment('review-bot', words);
      expect(await running.post(headers, body)).toBe(200);
    }
    expect(await running.store.list({})).toEqual([]);
    expect(gitea.requests.filter((r) => r.url === '/api/v1/user')).toHaveLength(asksAtStart);
    expect(permissionAsks(gitea)).toEqual([]);
  });

  it('ignores a comment carrying the marker, whoever wrote it', async () => {
    const { running } = await start();
    const { body, headers } = comment('writer', `/review\n\n${gatewayMarker('earlier-1')}`);
    expect(await running.post(headers, body)).toBe(200);
    expect(await running.store.list({})).toEqual([]);
  });

  it('counts platforms.gitea.bot as its own account too', async () => {
    const { running } = await start({ bot: 'other-bot' });
    const { body, headers } = comment('other-bot', '/review');
    expect(await running.post(headers, body)).toBe(200);
    expect(await running.store.list({})).toEqual([]);
  });
});
