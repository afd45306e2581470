/**
 * Command routes inside a whole gateway, with the real `gh` asking a GitHub-API-compatible fake
 * over TLS: who the gateway is (loop guard), and whether the commenter may run the agent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  definePlugin,
  parseConfig,
  silentLogger,
  type DeliveryRecord,
  type JsonObject,
} from '@webhook-gateway/core';
import { createGateway, MemoryStore, type Gateway } from '@webhook-gateway/core/runtime';
import { waitFor } from '@webhook-gateway/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { isolateEnv } from './test-support/env.js';
import { startFakeForgeApi, type FakeForgeApi } from './test-support/fake-forge-access.js';
import { fixture } from './test-support/requests.js';

const TOKEN = 'ghs_test_token_for_the_fake';

/** A runner that counts its runs and answers with the prompt it got. */
let runs = 0;
const echoRunner = definePlugin({
  name: 'test-echo-runner',
  setup({ hooks }) {
    hooks.run.for('echo').tapPromise('test-echo-runner', async (request) => {
      runs++;
      return { answer: request.prompt };
    });
  },
});

let api: FakeForgeApi;
let home: string;
let store: MemoryStore;
let gateway: Gateway | undefined;
let restoreEnv: () => void;

beforeAll(async () => {
  api = await startFakeForgeApi({
    login: 'review-gateway',
    token: TOKEN,
    roles: { maintainer: 'maintain', writer: 'write', reader: 'read' },
  });
});
afterAll(() => api.close());

beforeEach(() => {
  restoreEnv = isolateEnv();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-command-routes-'));
  // The real gh: its own empty config, trusting the fake's certificate.
  process.env.GH_CONFIG_DIR = path.join(home, 'gh-config');
  process.env.SSL_CERT_FILE = api.certFile;
  store = new MemoryStore();
  runs = 0;
  api.setDown(false);
});

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  fs.rmSync(home, { recursive: true, force: true });
  restoreEnv();
});

async function startGateway(route: Record<string, unknown> = {}): Promise<string> {
  const config = parseConfig(
    {
      agent: { runner: 'echo' },
      platforms: {
        webhook: {
          extra: {
            host: '127.0.0.1',
            port: 0,
            max_attempts: 2,
            retry_backoff_ms: 10,
            routes: {
              review: {
                secret: 'INSECURE_NO_AUTH',
                commands: ['/review', '@review-gateway'],
                prompt:
                  'cmd={_gateway.command.name} args={_gateway.command.args} pr={issue.number}',
                ...route,
              },
            },
          },
        },
        forge: { cli: 'gh', host: api.host, token: TOKEN, timeout_s: 20 },
      },
    },
    {},
    [plugin],
  );
  gateway = await createGateway({
    config,
    home,
    store,
    log: silentLogger(),
    plugins: [
      { plugin, options: undefined },
      { plugin: echoRunner, options: undefined },
    ],
  });
  const { port } = await gateway.start();
  return `http://127.0.0.1:${port}/webhooks/review`;
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

/** Waits until the only journaled delivery is finished. */
async function finished(): Promise<DeliveryRecord> {
  let status = 'none';
  return waitFor(
    async () => {
      const [record] = await store.list({});
      status = record?.status ?? 'none';
      return status !== 'queued' && status !== 'running' && record;
    },
    'the delivery to finish',
    { timeoutMs: 30_000, describe: () => `status ${status}` },
  );
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
    await store.prune(Date.now() + 1, Date.now() + 1);
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
    expect(await store.list({})).toEqual([]);
  });
});
