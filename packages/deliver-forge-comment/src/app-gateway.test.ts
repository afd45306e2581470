/**
 * `platforms.forge.app` inside a whole gateway: the real `gh` posts as the App's installation
 * against the TLS fake forge, which verifies each JWT with the App's public key, issues tokens and
 * records what each exchange asked for. These tests hold the issue's measure: token exchanges for
 * 50 deliveries to one repository (1) and to 5 repositories (5), with the permissions asked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { lookupPath, type JsonObject } from '@webhook-gateway/core';
import { createLogger } from '@webhook-gateway/core/runtime';
import { sampleDelivery } from '@webhook-gateway/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commentMarker } from './living-comment.js';
import { appKeyPair, writeAppKey } from './test-support/app-key.js';
import { startFakeForgeApi, type FakeForgeApi } from './test-support/fake-forge-api.js';
import { useGhGateway } from './test-support/gh-gateway.js';
import { fixture } from './test-support/requests.js';
import { trustFakeForge } from './test-support/trust-fake-forge.js';

const APP_ID = 4242;
const INSTALLATION = 77;
const REPOS = ['acme/alpha', 'acme/beta', 'acme/gamma', 'acme/delta', 'acme/epsilon'];

let forge: FakeForgeApi;
let untrust: () => void;
let logger: ReturnType<typeof createLogger>;

beforeAll(async () => {
  forge = await startFakeForgeApi({
    app: {
      id: APP_ID,
      slug: 'review-bot',
      publicKey: appKeyPair().publicKey,
      installations: [{ id: INSTALLATION, account: 'acme', repositories: REPOS }],
    },
  });
  untrust = trustFakeForge(forge.certFile);
});
afterAll(async () => {
  untrust();
  await forge.close();
});

const gh = useGhGateway({
  certFile: () => forge.certFile,
  answer: (request) => `reviewed ${request.delivery.deliveryId}`,
  // Line comments for the one repository whose test reads them: one on the diff, one off it.
  lineComments: (request) =>
    lookupPath(request.delivery.payload, 'repository.full_name') === 'acme/epsilon'
      ? [
          { path: 'src/a.ts', line: 2, body: 'b is unused' },
          { path: 'src/a.ts', line: 40, body: 'too long' },
        ]
      : [],
});
beforeEach(() => {
  forge.app?.exchanges.splice(0);
});

async function startGateway(route: Record<string, unknown> = {}): Promise<string> {
  logger = createLogger({ home: gh.home, level: 'debug', tty: false });
  return gh.start({
    route: 'app',
    extra: {
      concurrency: 8,
      rate_limit: 1000,
      routes: { app: { secret: 'INSECURE_NO_AUTH', deliver: 'forge_comment', ...route } },
    },
    forge: {
      api_url: forge.apiUrl,
      app: { app_id: APP_ID, private_key_file: writeAppKey(gh.home) },
      timeout_s: 30,
    },
    log: logger.log,
  });
}

/** The opened-pull-request fixture for `repo` (`owner/name`) from the App's installation. */
function pullRequestOn(repo: string, installation: JsonObject | null = { id: INSTALLATION }) {
  const payload = fixture('forge/pull_request_opened.json');
  const [owner = '', name = ''] = repo.split('/');
  const repository = { ...(payload.repository as JsonObject), full_name: repo, name };
  const base: JsonObject = { ...payload, repository, sender: { login: owner } };
  if (installation === null) delete base.installation;
  else base.installation = installation;
  return base;
}

let sent = 0;
async function post(url: string, event: string, payload: JsonObject): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'X-GitHub-Event': event,
      'X-GitHub-Delivery': `app-${++sent}`,
    },
    body: JSON.stringify(payload),
  });
  await response.arrayBuffer();
  return response.status;
}

const COMMENT_PERMISSIONS = { contents: 'read', pull_requests: 'write' };

describe('a gateway installed as a GitHub App', () => {
  it(
    'asks one token for 50 deliveries to one repository, scoped to it and to the comment permissions',
    { timeout: 180_000 },
    async () => {
      const url = await startGateway();
      const statuses = await Promise.all(
        Array.from({ length: 50 }, () => post(url, 'pull_request', pullRequestOn('acme/alpha'))),
      );
      expect(statuses.every((status) => status === 202)).toBe(true);
      const records = await gh.finished(50, 120_000);
      expect(records.map((r) => r.status)).toEqual(Array(50).fill('delivered'));
      expect(forge.comments('acme/alpha', 2)).toHaveLength(50);
      expect(forge.app?.exchanges).toEqual([
        {
          installationId: INSTALLATION,
          repositories: ['alpha'],
          permissions: COMMENT_PERMISSIONS,
          status: 201,
        },
      ]);
      // No key, JWT or token in the log at debug level.
      await gh.stop();
      logger.flush();
      const log = fs.readFileSync(path.join(gh.home, 'logs', 'gateway.log'), 'utf8');
      expect(log).toContain('posted the answer as a pull request comment');
      expect(log).not.toMatch(/ghs_|eyJ|PRIVATE KEY/);
    },
  );

  it(
    'asks one token per repository for 50 deliveries to 5 repositories',
    { timeout: 180_000 },
    async () => {
      const url = await startGateway();
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          post(url, 'pull_request', pullRequestOn(REPOS[i % 5] ?? '')),
        ),
      );
      await gh.finished(50, 120_000);
      const exchanges = forge.app?.exchanges ?? [];
      expect(exchanges).toHaveLength(5);
      expect(exchanges.map((e) => e.repositories).sort()).toEqual(
        REPOS.map((repo) => [repo.split('/')[1]]).sort(),
      );
      expect(exchanges.every((e) => e.status === 201)).toBe(true);
      expect(new Set(exchanges.map((e) => JSON.stringify(e.permissions)))).toEqual(
        new Set([JSON.stringify(COMMENT_PERMISSIONS)]),
      );
    },
  );

  it('asks issues: write too for the living comment, which goes through the issues API', async () => {
    const url = await startGateway({ deliver_extra: { mode: 'update' } });
    await post(url, 'pull_request', pullRequestOn('acme/beta'));
    const [record] = await gh.finished(1);
    expect(record).toMatchObject({ status: 'delivered' });
    expect(forge.app?.exchanges.map((e) => e.permissions)).toEqual([
      { ...COMMENT_PERMISSIONS, issues: 'write' },
    ]);
  });

  it('shows the review as a check run on the head commit with deliver_extra.check, asking checks: write', async () => {
    const url = await startGateway({ deliver_extra: { check: true } });
    await post(url, 'pull_request', pullRequestOn('acme/gamma'));
    const [record] = await gh.finished(1);
    expect(record).toMatchObject({ status: 'delivered' });
    expect(forge.app?.exchanges.map((e) => e.permissions)).toEqual([
      { ...COMMENT_PERMISSIONS, checks: 'write' },
    ]);
    const runs = forge.checks.runs().filter((run) => run.repo === 'acme/gamma');
    // Created in progress when the attempt started, completed when the comment was out.
    expect(runs).toMatchObject([
      {
        name: 'webhook-gateway/app',
        head_sha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
        status: 'completed',
        conclusion: 'neutral',
        external_id: record?.id,
        output: { title: 'Reviewed' },
      },
    ]);
    expect(runs[0]?.output.summary).toContain(`reviewed ${record?.deliveryId ?? ''}`);
    const calls = forge.requests.filter((r) => r.includes('/repos/acme/gamma/check-runs'));
    expect(calls).toEqual([
      'POST /api/v3/repos/acme/gamma/check-runs',
      `PATCH /api/v3/repos/acme/gamma/check-runs/${runs[0]?.id ?? 0}`,
    ]);
  });

  it('a forge_review check annotates the comments the review put on lines, and lists the others in its summary', async () => {
    forge.setDiff('acme/epsilon', 2, [
      { filename: 'src/a.ts', patch: '@@ -1,1 +1,2 @@\n a\n+b', lines: [1, 2] },
    ]);
    const url = await startGateway({ deliver: 'forge_review', deliver_extra: { check: true } });
    await post(url, 'pull_request', pullRequestOn('acme/epsilon'));
    const [record] = await gh.finished(1);
    expect(record).toMatchObject({ status: 'delivered' });
    expect(forge.reviews('acme/epsilon', 2)[0]?.comments.map((c) => c.line)).toEqual([2]);
    const [run, ...others] = forge.checks.runs().filter((r) => r.repo === 'acme/epsilon');
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(run?.output.title).toBe('Reviewed (2 comments)');
    expect(run?.annotations.map((a) => [a.start_line, a.message])).toEqual([[2, 'b is unused']]);
    expect(run?.output.summary).toContain('- `src/a.ts:40` — too long');
  });

  it('at start-up, fails the check of an attempt that died with the gateway, then reviews again under a new one', async () => {
    const payload = pullRequestOn('acme/delta');
    const accepted = await gh.store.accept(
      sampleDelivery({
        route: 'app',
        deliveryId: 'died-mid-run',
        payload,
        orderKey: 'app|acme/delta|2',
        maxAttempts: 2,
      }),
      3_600_000,
    );
    if (!accepted.accepted) throw new Error('not accepted');
    const id = accepted.record.id;
    // What the gateway that died left: the row running, its check run in progress.
    await gh.store.markRunning(id, Date.now());
    const sha = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';
    const dead = forge.checks.addRun({
      repo: 'acme/delta',
      name: 'webhook-gateway/app',
      head_sha: sha,
      status: 'in_progress',
      conclusion: null,
      external_id: id,
      details_url: null,
      output: { title: 'Review in progress', summary: 'attempt 1' },
    });
    await startGateway({ deliver_extra: { check: true } });
    const [record] = await gh.finished(1);
    expect(record).toMatchObject({ id, status: 'delivered', attempts: 2 });
    expect(dead).toMatchObject({
      status: 'completed',
      conclusion: 'failure',
      output: { title: 'The review failed' },
    });
    expect(dead.output.summary).toContain('interrupted: the gateway stopped during this attempt');
    // The attempt that ran after the restart showed its own progress and ended it.
    const runs = forge.checks.runs().filter((run) => run.repo === 'acme/delta');
    expect(runs.map((run) => [run.id === dead.id, run.status, run.conclusion])).toEqual([
      [true, 'completed', 'failure'],
      [false, 'completed', 'neutral'],
    ]);
  });

  it('the living comment edits only the bot’s own comments, never a person’s that quotes its marker', async () => {
    const asked = () => forge.requests.filter((r) => r === 'GET /api/v3/app').length;
    const askedBefore = asked();
    const url = await startGateway({ deliver_extra: { mode: 'update' } });
    const comments = forge.comments('acme/gamma', 2);
    comments.splice(0); // what earlier tests posted there
    const quoted = `${commentMarker('app')}\nquoting the bot: looks good`;
    comments.push({ id: 1, body: quoted, user: { login: 'alice', type: 'User' } });
    await post(url, 'pull_request', pullRequestOn('acme/gamma'));
    await gh.finished(1);
    await post(url, 'pull_request', pullRequestOn('acme/gamma'));
    const records = await gh.finished(2);
    expect(records.map((r) => r.status)).toEqual(['delivered', 'delivered']);
    const [newest] = [...records].sort((a, b) => b.seq - a.seq);
    // The person's comment is untouched; the bot posted one comment and then edited it.
    expect(comments.map((c) => [c.user.login, c.body.split('\n')[1]])).toEqual([
      ['alice', 'quoting the bot: looks good'],
      ['review-bot[bot]', `reviewed ${newest?.deliveryId ?? ''}`],
    ]);
    // The bot's login was read once, GET /app, for the loop guard and the living comment alike.
    expect(asked() - askedBefore).toBe(1);
  });

  it('asks pull_requests: read for a route whose template names the prepared review context', async () => {
    const url = await startGateway({ deliver: 'log', prompt: 'Guidance: {_gateway.guidance}' });
    await post(url, 'pull_request', pullRequestOn('acme/gamma'));
    const [record] = await gh.finished(1);
    expect(record).toMatchObject({ status: 'delivered' });
    expect(record?.prompt).toContain('Guidance: (none)');
    expect(forge.app?.exchanges.map((e) => e.permissions)).toEqual([
      { contents: 'read', pull_requests: 'read' },
    ]);
    // The guidance files were asked of the pull request's repository, as the App.
    expect(forge.requests).toContain('GET /api/v3/repos/acme/gamma/contents/AGENTS.md');
  });

  it('fails a delivery without installation.id as "not an App delivery", without retrying', async () => {
    const url = await startGateway();
    await post(url, 'pull_request', pullRequestOn('acme/alpha', null));
    const [record] = await gh.finished(1);
    expect(record).toMatchObject({ status: 'failed' });
    expect(record?.attempts).toBe(1);
    expect(record?.lastError).toMatch(/not an App delivery/);
    expect(forge.app?.exchanges).toEqual([]);
  });

  it('fails at once when the installation is unknown (404), naming it and the forge’s message', async () => {
    const url = await startGateway();
    await post(url, 'pull_request', pullRequestOn('acme/alpha', { id: 999 }));
    const [record] = await gh.finished(1);
    expect(record).toMatchObject({ status: 'failed' });
    expect(record?.attempts).toBe(1);
    expect(record?.lastError).toMatch(/installation 999.*HTTP 404: Not Found/);
  });

  it('fails at once on a repository outside the installation (422)', async () => {
    const url = await startGateway();
    await post(url, 'pull_request', pullRequestOn('other/elsewhere'));
    const [record] = await gh.finished(1);
    expect(record).toMatchObject({ status: 'failed' });
    expect(record?.attempts).toBe(1);
    expect(record?.lastError).toMatch(
      /installation 77.*HTTP 422: There is at least one repository/,
    );
  });

  it('does not retry a refused JWT (401)', async () => {
    const url = await startGateway();
    forge.app?.failExchanges(401, 'A JSON web token could not be decoded');
    await post(url, 'pull_request', pullRequestOn('acme/alpha'));
    const [record] = await gh.finished(1);
    expect(record).toMatchObject({ status: 'failed' });
    expect(record?.attempts).toBe(1);
    expect(record?.lastError).toMatch(
      /installation 77.*HTTP 401: A JSON web token could not be decoded/,
    );
  });

  it('retries after a 502 or a 429 from the token exchange', async () => {
    const url = await startGateway({ max_attempts: 3 });
    forge.app?.failExchanges(502, 'Server Error', 1);
    await post(url, 'pull_request', pullRequestOn('acme/alpha'));
    const [record] = await gh.finished(1);
    expect(record).toMatchObject({ status: 'delivered' });
    expect(forge.app?.exchanges.map((e) => e.status)).toEqual([502, 201]);
  });

  it('ignores comments by its own bot, <slug>[bot], read from GET /app', async () => {
    const url = await startGateway({ events: ['issue_comment'] });
    const payload = fixture('forge/issue_comment_created.on-pull-request.json');
    const comment = {
      ...(payload.comment as JsonObject),
      user: { login: 'review-bot[bot]', type: 'Bot' },
    };
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'X-GitHub-Event': 'issue_comment',
        'X-GitHub-Delivery': 'own',
      },
      body: JSON.stringify({
        ...payload,
        comment,
        sender: comment.user,
        installation: { id: INSTALLATION },
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ignored', reason: 'self' });
  });

  it('accepts and logs installation events without running them', async () => {
    const url = await startGateway();
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'X-GitHub-Event': 'installation_repositories',
        'X-GitHub-Delivery': 'inst',
      },
      body: JSON.stringify({
        action: 'added',
        installation: { id: INSTALLATION, account: { login: 'acme' } },
        repositories_added: [{ full_name: 'acme/zeta', name: 'zeta' }],
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ignored', reason: 'installation' });
    expect(await gh.store.list({})).toEqual([]);
  });
});
