/**
 * `webhook-gateway deliveries list|show|replay` as an operator meets them: tables and JSON,
 * filters, exit codes and one-line errors. The journal is written beforehand with the SQLite
 * store's own API (the state a gateway leaves behind), so every row is known exactly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DELIVERY_STATUSES, type AgentAccounting, type NewDelivery } from '@webhook-gateway/core';
import { openSqliteStore } from '@webhook-gateway/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupHomes, makeHome, runCli } from '../support/gateway.js';
import type { ListedDelivery, ShownDelivery } from '../support/journal-read.js';
import { pullRequestBody } from '../support/journal-stream.js';

const T0 = Date.now() - 3_600_000;
const ACCOUNTING: AgentAccounting = {
  runner: 'openai',
  model: 'qwen2.5-coder',
  turns: 3,
  toolCalls: [
    {
      tool: 'terminal',
      command: 'gh pr diff 1 --repo baxterthehacker/public-repo',
      exitCode: 0,
      durationMs: 640,
    },
  ],
  usage: { promptTokens: 1800, cachedPromptTokens: 1536, completionTokens: 250, totalTokens: 2050 },
};

let home: string;
/** Journal ids by what the row is. */
const ids = { reviewed: '', failedPush: '', waiting: '', running: '' };

function delivery(overrides: Partial<NewDelivery>): NewDelivery {
  return {
    route: 'reviews',
    event: 'pull_request',
    action: 'opened',
    deliveryId: 'unset',
    receivedAt: T0,
    payload: JSON.parse(pullRequestBody(1)) as NewDelivery['payload'],
    headers: { 'x-forge-event': 'pull_request', 'user-agent': 'Forge-Hookshot/044aadd' },
    orderKey: null,
    maxAttempts: 5,
    ...overrides,
  };
}

beforeAll(async () => {
  home = makeHome();
  const store = openSqliteStore({ path: path.join(home, 'state.db') });
  const accept = async (overrides: Partial<NewDelivery>) => {
    const result = await store.accept(delivery(overrides), 3_600_000);
    if (!result.accepted) throw new Error('not accepted');
    return result.record.id;
  };
  // Oldest first: list shows newest first.
  ids.reviewed = await accept({
    deliveryId: 'gh-reviewed-1',
    headers: {
      'x-forge-event': 'pull_request',
      'x-forge-delivery': 'gh-reviewed-1',
      'user-agent': 'Forge-Hookshot/044aadd',
    },
  });
  await store.markRunning(ids.reviewed, T0 + 100);
  await store.saveProgress(ids.reviewed, { prompt: 'Review PR #1: Update the README' });
  await store.markRetry(
    ids.reviewed,
    'agent command "agent" exited with code 3',
    T0 + 400,
    T0 + 900,
  );
  await store.markRunning(ids.reviewed, T0 + 900);
  await store.saveProgress(ids.reviewed, {
    answer: 'LGTM: one nit in README.md',
    agent: ACCOUNTING,
    lineComments: [{ path: 'README.md', line: 3, body: 'use https://' }],
  });
  await store.markDelivered(ids.reviewed, T0 + 2_100);

  ids.failedPush = await accept({
    route: 'pushes',
    event: 'push',
    action: null,
    deliveryId: 'gh-push-2',
    receivedAt: T0 + 10_000,
    payload: { ref: 'refs/heads/main' },
  });
  for (let attempt = 0; attempt < 2; attempt++) {
    await store.markRunning(ids.failedPush, T0 + 10_100 + attempt * 1000);
    await store.markRetry(
      ids.failedPush,
      'Slack answered HTTP 500',
      T0 + 10_200 + attempt * 1000,
      T0,
    );
  }
  await store.markRunning(ids.failedPush, T0 + 12_100);
  await store.markFailed(
    ids.failedPush,
    'messenger_c (Slack): Slack answered HTTP 500',
    T0 + 12_200,
  );

  ids.waiting = await accept({ deliveryId: 'gh-waiting-3', receivedAt: T0 + 20_000 });
  ids.running = await accept({ deliveryId: 'gh-running-4', receivedAt: T0 + 30_000 });
  await store.markRunning(ids.running, T0 + 30_100);
  await store.close();
});

afterAll(() => cleanupHomes());

function deliveries(...args: string[]) {
  return runCli(['deliveries', ...args, '--home', home]);
}

describe('deliveries list', () => {
  it('prints an aligned table, newest first', async () => {
    const result = await deliveries('list');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^ID +RECEIVED +ROUTE +EVENT +ACTION +DELIVERY ID +STATUS +ATTEMPTS +DURATION +TOKENS +QUEUE$/,
    );
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual([
      ids.running,
      ids.waiting,
      ids.failedPush,
      ids.reviewed,
    ]);
    const statusAt = lines[0]?.indexOf('STATUS') ?? -1;
    expect(lines.slice(1).map((line) => line.slice(statusAt).split(' ')[0])).toEqual([
      'running',
      'queued',
      'failed',
      'delivered',
    ]);
    const attemptsAt = lines[0]?.indexOf('ATTEMPTS') ?? -1;
    expect(lines.slice(1).map((line) => line.slice(attemptsAt).split(' ')[0])).toEqual([
      '1/5',
      '0/5',
      '3/5',
      '2/5',
    ]);
    expect(lines[3]).toMatch(/ pushes +push +- +gh-push-2 /);
    expect(lines[4]).toMatch(/ 2\.0 s +2050 +-$/);
    // The queued one's place in its route's queue: nothing holds it.
    expect(lines[2]).toMatch(/ 0\/5 +- +- +1st(, starting)?$/);
  });

  it('prints JSON rows for scripts', async () => {
    const result = await deliveries('list', '--json');
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as ListedDelivery[];
    expect(rows.map((r) => r.deliveryId)).toEqual([
      'gh-running-4',
      'gh-waiting-3',
      'gh-push-2',
      'gh-reviewed-1',
    ]);
    expect(rows[2]).toEqual({
      id: ids.failedPush,
      deliveryId: 'gh-push-2',
      route: 'pushes',
      event: 'push',
      action: null,
      status: 'failed',
      attempts: 3,
      maxAttempts: 5,
      receivedAt: new Date(T0 + 10_000).toISOString(),
      startedAt: new Date(T0 + 10_100).toISOString(),
      finishedAt: new Date(T0 + 12_200).toISOString(),
      durationMs: 2_100,
      lastError: 'messenger_c (Slack): Slack answered HTTP 500',
      tokens: null,
      cost: null,
      partial: false,
      queue: null,
    });
  });

  it('filters by route and status, and limits the rows', async () => {
    const listed = async (...args: string[]) => {
      const result = await deliveries('list', '--json', ...args);
      expect(result.code).toBe(0);
      return (JSON.parse(result.stdout) as ListedDelivery[]).map((r) => r.deliveryId);
    };
    expect(await listed('--route', 'pushes')).toEqual(['gh-push-2']);
    expect(await listed('--status', 'queued')).toEqual(['gh-waiting-3']);
    expect(await listed('--route', 'reviews', '--status', 'delivered')).toEqual(['gh-reviewed-1']);
    expect(await listed('--limit', '2')).toEqual(['gh-running-4', 'gh-waiting-3']);
  });

  it('says so when nothing matches', async () => {
    const result = await deliveries('list', '--route', 'nowhere');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('no deliveries with route nowhere\n');
  });

  it.each([
    [['--status', 'done'], `--status must be one of ${DELIVERY_STATUSES.join(', ')} (got "done")`],
    [['--limit', '0'], '--limit must be a positive integer (got "0")'],
    [['--limit', 'many'], '--limit must be a positive integer (got "many")'],
  ])('refuses %j with exit 2 and one line', async (args, message) => {
    const result = await deliveries('list', ...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`error: ${message}\n`);
  });
});

describe('deliveries show', () => {
  it('prints the fields, headers, each attempt, the agent accounting, prompt, answer and line comments', async () => {
    const result = await deliveries('show', ids.reviewed);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const text = result.stdout;
    expect(text).toContain(`id           ${ids.reviewed}\n`);
    expect(text).toContain('delivery id  gh-reviewed-1\n');
    expect(text).toContain('event        pull_request (opened)\n');
    expect(text).toContain('status       delivered (2 of 5 attempts)\n');
    expect(text).toContain('duration     2.0 s\n');
    expect(text).toContain('waited       100 ms\n');
    expect(text).toMatch(
      /headers\n {2}user-agent {8}Forge-Hookshot\/044aadd\n {2}x-forge-delivery {2}gh-reviewed-1\n/,
    );
    expect(text).toMatch(
      /\n {2}1 +\S+ \S+ +\S+ \S+ +300 ms +agent command "agent" exited with code 3\n/,
    );
    expect(text).toMatch(/\n {2}2 +\S+ \S+ +\S+ \S+ +1\.2 s +ok\n/);
    expect(text).toContain('  model       qwen2.5-coder\n');
    expect(text).toContain('  turns       3\n');
    expect(text).toContain('  tool calls  1\n');
    expect(text).toContain(
      '  tokens      2050 (prompt 1800: 1536 cached, 264 uncached; completion 250)\n',
    );
    expect(text).toMatch(
      /1 +terminal +0 +640 ms +gh pr diff 1 --repo baxterthehacker\/public-repo/,
    );
    expect(text).toContain('prompt\n  Review PR #1: Update the README\n');
    expect(
      text.endsWith(
        'answer\n  LGTM: one nit in README.md\n\nline comments (1)\n  README.md:3\n    use https://\n',
      ),
    ).toBe(true);
    const json = JSON.parse(
      (await deliveries('show', ids.reviewed, '--json')).stdout,
    ) as ShownDelivery;
    expect(json.lineComments).toEqual([{ path: 'README.md', line: 3, body: 'use https://' }]);
  });

  it("finds a delivery by the sender's delivery id and prints JSON", async () => {
    const result = await deliveries('show', 'gh-push-2', '--json');
    expect(result.code).toBe(0);
    const shown = JSON.parse(result.stdout) as ShownDelivery;
    expect(shown).toMatchObject({
      id: ids.failedPush,
      status: 'failed',
      lastError: 'messenger_c (Slack): Slack answered HTTP 500',
      payload: { ref: 'refs/heads/main' },
      prompt: null,
      answer: null,
      lineComments: [],
      agent: null,
    });
    expect(shown.attemptLog.map((a) => [a.attempt, a.durationMs, a.error])).toEqual([
      [1, 100, 'Slack answered HTTP 500'],
      [2, 100, 'Slack answered HTTP 500'],
      [3, 100, 'messenger_c (Slack): Slack answered HTTP 500'],
    ]);
  });

  it('refuses an unknown id with exit 1 and one line', async () => {
    const result = await deliveries('show', 'no-such-id');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('no delivery with id no-such-id\n');
  });
});

describe('deliveries replay', () => {
  it('refuses a running delivery with exit 1 and says why', async () => {
    const result = await deliveries('replay', ids.running);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`delivery ${ids.running} is running`);
  });

  it('leaves a queued delivery alone', async () => {
    const result = await deliveries('replay', 'gh-waiting-3');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `delivery ${ids.waiting} (route reviews, delivery id gh-waiting-3) is already queued: status queued\n`,
    );
  });

  it('queues a failed delivery again with fresh attempts, even with no gateway running', async () => {
    const result = await deliveries('replay', ids.failedPush);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `delivery ${ids.failedPush} (route pushes, delivery id gh-push-2) queued again: status queued\n`,
    );
    const shown = JSON.parse(
      (await deliveries('show', ids.failedPush, '--json')).stdout,
    ) as ShownDelivery;
    expect(shown).toMatchObject({ status: 'queued', attempts: 0, lastError: null });
    // The history of the earlier attempts stays.
    expect(shown.attemptLog).toHaveLength(3);
  });
});

describe('where the journal is', () => {
  it('reads $WEBHOOK_GATEWAY_HOME, and an empty home as an empty journal without creating one', async () => {
    const empty = makeHome();
    const result = await runCli(['deliveries', 'list'], { env: { WEBHOOK_GATEWAY_HOME: empty } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('no deliveries in the journal\n');
    expect(fs.existsSync(path.join(empty, 'state.db'))).toBe(false);
  });

  it('refuses a memory store, which only the gateway process can see', async () => {
    const other = makeHome();
    const configFile = path.join(other, 'memory.yaml');
    fs.writeFileSync(configFile, 'store: { kind: memory }\n');
    const result = await runCli(['deliveries', 'list', '--home', other, '--config', configFile]);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('store.kind is "memory"');
  });
});
