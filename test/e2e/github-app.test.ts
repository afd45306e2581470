/**
 * The gateway installed as a GitHub App, through the built CLI: `webhook-gateway gateway` with
 * `platforms.forge.app` and `api_url` pointing at the TLS fake forge, which plays the App (it
 * verifies each JWT with the App's public key, issues installation tokens and records what each
 * asked for, and takes a comment only with a live token for its repository). Signed
 * `pull_request` deliveries for two repositories; the real gh posts the answers. On the SQLite
 * journal, and on Redis with a receiver and two worker processes. The fake's record is the
 * measure: token exchanges per repository (printed), and the repository and permissions of each.
 */
import type { DeliveryRecord } from '@webhook-gateway/core';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../packages/store-redis/src/index.js';
import {
  cleanupHomes,
  makeHome,
  startGateway,
  waitFor,
  writeConfig,
  type StartedGateway,
} from '../support/gateway.js';
import {
  APP_SLUG,
  appPullRequest,
  INSTALLATION_ID,
  sendAppDelivery,
  startTestApp,
  type TestApp,
} from '../support/github-app.js';
import { readJournal } from '../support/journal-read.js';
import { recordingAgent } from '../support/records.js';
import { startRole, type RoleProcess } from '../support/redis-gateways.js';
import { deleteKeys, findTestRedis, uniquePrefix } from '../support/redis-server.js';

const SECRET = 'e2e-github-app-webhook-secret';
const REPOS = ['acme/alpha', 'acme/beta'];
/** Deliveries per repository. */
const PER_REPO = 4;
/** The fixture's pull request. */
const PR_NUMBER = 2;
const COMMENT_PERMISSIONS = { contents: 'read', pull_requests: 'write' };

let app: TestApp;

beforeEach(async () => {
  app = await startTestApp([...REPOS, 'acme/gamma']);
});

afterEach(async () => {
  await app.close();
});

afterAll(() => cleanupHomes());

/** The App's route: every repository the App is installed on comes through it. */
function appConfig(home: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agent: recordingAgent(`${home}/agent.jsonl`),
    ...extra,
    platforms: {
      forge: app.forgeSettings,
      webhook: {
        extra: {
          routes: {
            app: { secret: SECRET, events: ['pull_request'], deliver: 'forge_comment' },
          },
        },
      },
    },
  };
}

/** `PER_REPO` deliveries to each repository, interleaved; their delivery ids. */
async function sendToBothRepos(url: string): Promise<string[]> {
  const sends = Array.from({ length: PER_REPO * REPOS.length }, (_, i) =>
    sendAppDelivery(url, 'app', appPullRequest(REPOS[i % REPOS.length] ?? ''), SECRET),
  );
  const sent = await Promise.all(sends);
  expect(sent.map((s) => s.status)).toEqual(sent.map(() => 202));
  return sent.map((s) => s.deliveryId);
}

/** The rows of `ids` once none is queued or running. */
async function finished(
  read: () => Promise<DeliveryRecord[]>,
  ids: readonly string[],
): Promise<DeliveryRecord[]> {
  return waitFor(
    async () => {
      const rows = (await read()).filter((row) => ids.includes(row.deliveryId));
      const open = rows.some((row) => row.status === 'queued' || row.status === 'running');
      return rows.length === ids.length && !open ? rows : undefined;
    },
    'the App deliveries to finish',
    { timeoutMs: 120_000 },
  );
}

/** Token exchanges per repository name, from the fake's record. */
function exchangesPerRepository(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const exchange of app.forge.app?.exchanges ?? []) {
    const key = exchange.repositories.join(',');
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** What holds on either store: comments by the bot, each call with a live one-repository token. */
function expectCommentsAsTheApp(): void {
  for (const repo of REPOS) {
    const comments = app.forge.comments(repo, PR_NUMBER);
    expect(comments).toHaveLength(PER_REPO);
    expect(new Set(comments.map((c) => c.user.login))).toEqual(new Set([`${APP_SLUG}[bot]`]));
  }
  const fakeApp = app.forge.app;
  // Every exchange: one repository, the comment permissions, the payload's installation.
  expect(fakeApp?.exchanges.length).toBeGreaterThan(0);
  for (const exchange of fakeApp?.exchanges ?? []) {
    expect(exchange).toMatchObject({
      installationId: INSTALLATION_ID,
      permissions: COMMENT_PERMISSIONS,
      status: 201,
    });
    expect(exchange.repositories).toHaveLength(1);
  }
  // Every forge call that posted a comment carried a live token for that one repository only
  // (the fake answers 401 to a dead token and 404 outside its repositories).
  const uses = fakeApp?.tokenUses ?? [];
  expect(uses.filter((use) => use.request === 'POST /api/graphql').length).toBeGreaterThanOrEqual(
    PER_REPO * REPOS.length,
  );
  for (const use of uses) expect(use.repositories).toHaveLength(1);
}

describe('a GitHub App gateway on the SQLite journal', { timeout: 240_000 }, () => {
  let gateway: StartedGateway | undefined;
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
  });

  it('comments on two repositories as <slug>[bot], one token exchange per repository', async () => {
    const home = makeHome();
    gateway = await startGateway({
      home,
      config: appConfig(home),
      env: app.env,
      timeoutMs: 60_000,
    });
    const ids = await sendToBothRepos(gateway.url);
    const rows = await finished(() => readJournal(home), ids);
    expect(rows.map((row) => [row.status, row.lastError])).toEqual(
      rows.map(() => ['delivered', null]),
    );
    expectCommentsAsTheApp();
    const perRepository = exchangesPerRepository();
    expect(perRepository).toEqual({ alpha: 1, beta: 1 });
    process.stdout.write(
      `[github-app e2e] sqlite, one gateway: ${ids.length} deliveries to ${REPOS.length} repositories, token exchanges per repository ${JSON.stringify(perRepository)}\n`,
    );
  });
});

describe(
  'a GitHub App gateway on Redis, one receiver and two workers',
  { timeout: 240_000 },
  () => {
    it('comments on two repositories as <slug>[bot], at most one exchange per repository and worker', async () => {
      const redis = await findTestRedis();
      if (!redis) return;
      const prefix = uniquePrefix();
      const url = redis.url({ prefix });
      const home = makeHome();
      const configFile = writeConfig(home, appConfig(home, { store: { kind: 'redis', url } }));
      const options = { timeoutMs: 60_000, env: app.env };
      const processes: RoleProcess[] = await Promise.all([
        startRole('receiver', configFile, options),
        startRole('worker', configFile, options),
        startRole('worker', configFile, options),
      ]);
      const store = await openRedisStore({ url });
      try {
        const ids = await sendToBothRepos(processes[0]?.url ?? '');
        const rows = await finished(() => store.list({ limit: 1000 }), ids);
        expect(rows.map((row) => [row.status, row.lastError])).toEqual(
          rows.map(() => ['delivered', null]),
        );
        expectCommentsAsTheApp();
        // Each worker keeps its own token cache: one exchange per repository in each worker that
        // delivered to it, so one or two per repository here.
        const perRepository = exchangesPerRepository();
        expect(Object.keys(perRepository).sort()).toEqual(['alpha', 'beta']);
        for (const count of Object.values(perRepository)) {
          expect(count).toBeGreaterThanOrEqual(1);
          expect(count).toBeLessThanOrEqual(2);
        }
        process.stdout.write(
          `[github-app e2e] redis, 1 receiver + 2 workers: ${ids.length} deliveries to ${REPOS.length} repositories, token exchanges per repository ${JSON.stringify(perRepository)}\n`,
        );
      } finally {
        await Promise.all(processes.map((p) => p.stop()));
        await store.close();
        await deleteKeys(redis.url(), prefix);
        await redis.stop();
      }
    });
  },
);
