/** The plugin inside a whole gateway: a webhook in, the agent's answer posted through the fake CLIs. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { definePlugin, parseConfig, silentLogger } from '@webhook-gateway/core';
import { createGateway, MemoryStore, type Gateway } from '@webhook-gateway/core/runtime';
import { waitForDelivery } from '@webhook-gateway/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import plugin, { DELIVER_FORGE_COMMENT_PLUGIN_NAME } from './index.js';
import { createFakeCli, GH_STDERR, type FakeCli } from './test-support/fake-cli.js';
import { isolateEnv } from './test-support/env.js';
import { fixtureBytes } from './test-support/requests.js';

const ANSWER = 'Reviewed: the change looks good.';

/** Stands in for an agent runner (those live in @webhook-gateway/agent): a fixed answer. */
const fixedAnswer = definePlugin({
  name: 'test-fixed-answer',
  setup({ hooks }) {
    hooks.run.for('fixed').tapPromise('test-fixed-answer', async () => ({ answer: ANSWER }));
  },
});

let gh: FakeCli;
let glab: FakeCli;
let home: string;
let store: MemoryStore;
let gateway: Gateway | undefined;
let restoreEnv: () => void;

beforeEach(() => {
  restoreEnv = isolateEnv();
  gh = createFakeCli('gh');
  glab = createFakeCli('glab');
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-forge-comment-home-'));
  store = new MemoryStore();
});

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  gh.cleanup();
  glab.cleanup();
  fs.rmSync(home, { recursive: true, force: true });
  restoreEnv();
});

async function startGateway(altforge: Record<string, unknown> = {}): Promise<string> {
  const config = parseConfig(
    {
      agent: { runner: 'fixed' },
      platforms: {
        webhook: {
          extra: {
            host: '127.0.0.1',
            port: 0,
            max_attempts: 1,
            routes: {
              reviews: {
                secret: 'INSECURE_NO_AUTH',
                events: ['pull_request'],
                prompt: 'Review PR #{number}: {pull_request.title}',
                deliver: 'forge_comment',
                deliver_extra: { repo: '{repository.full_name}', pr_number: '{number}' },
              },
              mr_reviews: {
                secret: 'INSECURE_NO_AUTH',
                deliver: 'altforge_comment',
              },
              // The review targets are the plugin's too: the gateway starts with routes naming them.
              // (Hearing no comment events, they ask no account at start: the fakes see no call.)
              line_reviews: {
                secret: 'INSECURE_NO_AUTH',
                events: ['pull_request'],
                deliver: 'forge_review',
              },
              mr_line_reviews: {
                secret: 'INSECURE_NO_AUTH',
                events: ['Merge Request Hook'],
                deliver: 'altforge_review',
              },
            },
          },
        },
        forge: { cli: gh.path, token: 'ghp_from_config' },
        altforge: { cli: glab.path, host: 'gitlab.example.com', ...altforge },
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
      { plugin: fixedAnswer, options: undefined },
    ],
  });
  const { port } = await gateway.start();
  return `http://127.0.0.1:${port}`;
}

async function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

describe(DELIVER_FORGE_COMMENT_PLUGIN_NAME, () => {
  it('posts the agent answer of a pull_request webhook as a PR comment through gh', async () => {
    const base = await startGateway();
    const status = await post(
      `${base}/webhooks/reviews`,
      fixtureBytes('forge/pull_request_opened.json'),
      { 'X-Forge-Event': 'pull_request', 'X-Forge-Delivery': 'gw-forge-1' },
    );
    expect(status).toBe(202);
    const record = await waitForDelivery(store, 15_000);
    expect(record).toMatchObject({ status: 'delivered', answer: ANSWER });
    expect(gh.calls()).toEqual([
      {
        argv: ['pr', 'comment', '2', '--repo', 'Codertocat/Hello-World', '--body-file', '-'],
        stdin: `${ANSWER}\n\n<!-- webhook-gateway:delivery gw-forge-1 -->`,
        env: { GH_TOKEN: 'ghp_from_config' },
      },
    ]);
    // Only the start-up question (who the gateway is on the altforge): no note.
    expect(glab.calls().map((call) => call.argv)).toEqual([['api', 'user']]);
  });

  it('posts the agent answer of a merge request webhook as an MR note through glab', async () => {
    const base = await startGateway();
    const status = await post(
      `${base}/webhooks/mr_reviews`,
      fixtureBytes('altforge/merge_request_open.json'),
      { 'X-Altforge-Event': 'Merge Request Hook', 'Idempotency-Key': 'gw-altforge-1' },
    );
    expect(status).toBe(202);
    expect(await waitForDelivery(store, 15_000)).toMatchObject({ status: 'delivered' });
    expect(glab.calls()).toEqual([
      // At start: who the gateway is on the altforge (mr_reviews takes every event, notes too).
      { argv: ['api', 'user'], stdin: '', env: { GITLAB_HOST: 'gitlab.example.com' } },
      {
        argv: ['mr', 'note', '1', '--repo', 'gitlabhq/gitlab-test'],
        stdin: `${ANSWER}\n\n<!-- webhook-gateway:delivery gw-altforge-1 -->`,
        env: { GITLAB_HOST: 'gitlab.example.com' },
      },
    ]);
  });

  it('posts with the most specific of platforms.altforge.tokens, and asks each token’s user at start', async () => {
    const base = await startGateway({
      token: 'default-token',
      tokens: { 'gitlabhq/*': 'group-token', 'gitlabhq/gitlab-test': 'project-token' },
    });
    await post(`${base}/webhooks/mr_reviews`, fixtureBytes('altforge/merge_request_open.json'), {
      'X-Altforge-Event': 'Merge Request Hook',
      'Idempotency-Key': 'gw-altforge-2',
    });
    expect(await waitForDelivery(store, 15_000)).toMatchObject({ status: 'delivered' });
    const calls = glab
      .calls()
      .map((call) => [call.argv.slice(0, 2).join(' '), call.env.GITLAB_TOKEN]);
    expect(calls).toEqual([
      ['api user', 'default-token'],
      ['api user', 'group-token'],
      ['api user', 'project-token'],
      ['mr note', 'project-token'],
    ]);
  });

  it("records gh's failure on the delivery, for the worker to retry and report", async () => {
    gh.behave({ mode: 'fail', exitCode: 1, stderr: GH_STDERR.prNotFound });
    const base = await startGateway();
    await post(`${base}/webhooks/reviews`, fixtureBytes('forge/pull_request_opened.json'), {
      'X-Forge-Event': 'pull_request',
      'X-Forge-Delivery': 'gw-forge-2',
    });
    const record = await waitForDelivery(store, 15_000);
    expect(record.status).toBe('failed');
    expect(record.lastError).toContain(
      'forge_comment: pull request #2 of Codertocat/Hello-World was not found',
    );
    expect(record.lastError).toContain(
      'Could not resolve to a PullRequest with the number of 9999',
    );
    expect(record.lastError).not.toContain('ghp_from_config');
  });
});
