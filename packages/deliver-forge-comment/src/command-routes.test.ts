/**
 * Command routes inside a whole gateway, with the real `gh` asking a GitHub-API-compatible fake
 * over TLS: who the gateway is (loop guard), and whether the commenter may run the agent.
 */
import type { JsonObject } from '@webhook-gateway/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeForgeApi, type FakeForgeApi } from './test-support/fake-forge-access.js';
import { useGhGateway } from './test-support/gh-gateway.js';
import { fixture } from './test-support/requests.js';

const TOKEN = 'ghs_test_token_for_the_fake';

let api: FakeForgeApi;
beforeAll(async () => {
  api = await startFakeForgeApi({
    login: 'review-gateway',
    token: TOKEN,
    roles: { maintainer: 'maintain', writer: 'write', reader: 'read' },
  });
});
afterAll(() => api.close());

/** The agent's runs: it answers with the prompt it got. */
let runs = 0;
const gh = useGhGateway({
  certFile: () => api.certFile,
  answer: (request) => {
    runs++;
    return request.prompt;
  },
});
beforeEach(() => {
  runs = 0;
  api.setDown(false);
});

function startGateway(route: Record<string, unknown> = {}): Promise<string> {
  return gh.start({
    route: 'review',
    extra: {
      routes: {
        review: {
          secret: 'INSECURE_NO_AUTH',
          commands: ['/review', '@review-gateway'],
          prompt: 'cmd={_gateway.command.name} args={_gateway.command.args} pr={issue.number}',
          ...route,
        },
      },
    },
    forge: { cli: 'gh', host: api.host, token: TOKEN, timeout_s: 20 },
  });
}

/** The recorded comment on a pull request, with another author and body. */
function comment(login: string, body: string, type = 'User'): JsonObject {
  const payload = fixture('forge/issue_comment_created.on-pull-request.json');
  return {
    ...payload,
    comment: { ...(payload.comment as JsonObject), body },
    sender: { ...(payload.sender as JsonObject), login, type },
  };
}

let sent = 0;
async function post(url: string, payload: JsonObject): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'X-GitHub-Event': 'issue_comment',
      'X-GitHub-Delivery': `cmd-${++sent}`,
    },
    body: JSON.stringify(payload),
  });
  return { status: response.status, body: await response.json() };
}

/** The only journaled delivery, once it is finished. */
async function finished() {
  const [record] = await gh.finished(1);
  if (!record) throw new Error('no delivery journaled');
  return record;
}

describe('command routes with the real gh', () => {
  it('runs /review from a writer, with the command and its args in the prompt', async () => {
    const url = await startGateway();
    expect((await post(url, comment('writer', '/review focus on tests'))).status).toBe(202);
    const record = await finished();
    expect(record).toMatchObject({ status: 'delivered' });
    expect(record.answer).toContain('cmd=/review args=focus on tests pr=2');
    expect(runs).toBe(1);
    expect(api.requests()).toContainEqual({
      method: 'GET',
      path: '/api/v3/repos/abc/def-ci-webhook-test/collaborators/writer/permission',
      authorized: true,
    });
  });

  it('denies a read-only commenter without running the agent', async () => {
    const url = await startGateway();
    await post(url, comment('reader', '@review-gateway please'));
    const record = await finished();
    expect(record.status).toBe('denied');
    expect(record.lastError).toBe(
      "permission: reader has read on the repository; the route's commands need write",
    );
    expect(record.agent).toBeNull();
    expect(runs).toBe(0);
  });

  it('makes command_permission stricter', async () => {
    const url = await startGateway({ command_permission: 'maintain' });
    await post(url, comment('writer', '/review'));
    expect((await finished()).status).toBe('denied');
    expect(runs).toBe(0);
  });

  it('asks the forge once per commenter within the cache time', async () => {
    const url = await startGateway();
    await post(url, comment('maintainer', '/review one'));
    await finished();
    await gh.store.prune(Date.now() + 1, Date.now() + 1);
    await post(url, comment('maintainer', '/review two'));
    await finished();
    expect(runs).toBe(2);
    const asked = api
      .requests()
      .filter((request) => request.path.endsWith('/collaborators/maintainer/permission'));
    expect(asked).toHaveLength(1);
  });

  it('counts an unreachable forge as a failed attempt, retried', async () => {
    api.setDown(true);
    const url = await startGateway();
    await post(url, comment('someone-new', '/review'));
    const record = await finished();
    expect(record.status).toBe('failed');
    expect(record.attempts).toBe(2);
    expect(record.lastError).toMatch(
      /gh api repos\/abc\/def-ci-webhook-test\/collaborators\/someone-new\/permission failed/,
    );
    expect(record.lastError).not.toContain(TOKEN);
    expect(runs).toBe(0);
  });

  it("ignores the gateway's own account, its marker, bots and other comments", async () => {
    const url = await startGateway();
    expect(api.requests()).toContainEqual({
      method: 'GET',
      path: '/api/v3/user',
      authorized: true,
    });
    const ignored = async (payload: JsonObject) => (await post(url, payload)).body;
    expect(await ignored(comment('review-gateway', '/review'))).toEqual({
      status: 'ignored',
      event: 'issue_comment',
      reason: 'self',
    });
    expect(
      await ignored(comment('writer', 'Done.\n\n<!-- webhook-gateway:delivery x -->')),
    ).toMatchObject({ reason: 'self' });
    expect(await ignored(comment('ci', '/review', 'Bot'))).toMatchObject({ reason: 'bot' });
    expect(await ignored(comment('writer', 'nice work'))).toMatchObject({ reason: 'command' });
    expect(await gh.store.list({})).toEqual([]);
  });
});
