/**
 * No secret in any log, through the built CLI at the most verbose level: the config's secrets, the
 * credentials and signatures requests carry (accepted and refused ones), and what the `log` target
 * writes never reach `<home>/logs/gateway.log`. Installed as a GitHub App, the App's private key,
 * the JWTs it signs and the installation tokens it is given reach neither the log, nor the journal
 * file, nor `deliveries show` or `list`, nor the dashboard's delivery page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupHomes, runCli, startGateway, waitFor } from '../support/gateway.js';
import { appPullRequest, sendAppDelivery, startTestApp } from '../support/github-app.js';
import { finishedRow, readJournal } from '../support/journal-read.js';
import { recordingAgent } from '../support/records.js';
import { fixture, newDeliveryId, post, signForge } from '../support/requests.js';

const WEBHOOK_SECRET = 'log-secrets-global-8c1d0f3a';
const ROUTE_SECRET = 'log-secrets-route-4e9b27d6';
const BEARER = 'bearer-credential-71a0c5e2';
const COOKIE = 'session-cookie-93f4b8d1';
const WRONG_TOKEN = 'wrong-token-2d6e8a40';

afterAll(() => cleanupHomes());

describe('secrets and the log file', () => {
  it('keeps every secret of the config and of the requests out of the log', async () => {
    const gateway = await startGateway({
      args: ['--log-level', 'trace'],
      config: {
        platforms: {
          webhook: {
            extra: {
              secret: WEBHOOK_SECRET,
              routes: {
                reviews: { secret: ROUTE_SECRET, prompt: 'Review PR #{number}' },
                open: { prompt: 'Open {action}' },
              },
            },
          },
        },
      },
    });
    const pullRequest = fixture('forge/pull_request_opened.json');
    const mergeRequest = fixture('altforge/merge_request_open.json');
    const credentials = { Authorization: `Bearer ${BEARER}`, Cookie: `session=${COOKIE}` };
    const sentSecrets = [WEBHOOK_SECRET, ROUTE_SECRET, BEARER, COOKIE, WRONG_TOKEN];
    const forge = (route: string, secret: string) => {
      const signature = signForge(pullRequest, secret);
      sentSecrets.push(signature.slice('sha256='.length));
      return post(`${gateway.url}/webhooks/${route}`, pullRequest, {
        'Content-Type': 'application/json',
        'X-GitHub-Event': 'pull_request',
        'X-GitHub-Delivery': newDeliveryId(),
        'X-Hub-Signature-256': signature,
        ...credentials,
      });
    };
    const altforge = (route: string, token: string) =>
      post(`${gateway.url}/webhooks/${route}`, mergeRequest, {
        'Content-Type': 'application/json',
        'X-Gitlab-Event': 'Merge Request Hook',
        'X-Gitlab-Event-UUID': newDeliveryId(),
        'X-Gitlab-Token': token,
        ...credentials,
      });
    try {
      const answers = [
        await forge('reviews', ROUTE_SECRET),
        await forge('open', WEBHOOK_SECRET),
        await altforge('reviews', ROUTE_SECRET),
        await forge('reviews', WRONG_TOKEN),
        await altforge('open', WRONG_TOKEN),
        await post(`${gateway.url}/webhooks/open`, pullRequest, {
          'Content-Type': 'application/json',
          'webhook-id': 'msg_1',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': `v1,${Buffer.from(WRONG_TOKEN).toString('base64')}`,
          ...credentials,
        }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 401, 401, 401]);
      sentSecrets.push(Buffer.from(WRONG_TOKEN).toString('base64'));
      await waitFor(
        () =>
          gateway.logLines().filter((line) => line.msg === 'delivered').length === 3
            ? true
            : undefined,
        'three deliveries',
      );
    } finally {
      await gateway.stop();
    }
    const log = fs.readFileSync(path.join(gateway.home, 'logs', 'gateway.log'), 'utf8');
    // The log is not empty: the refusals (debug) and the `log` target's answers are in it.
    expect(log).toContain('"msg":"unauthorized"');
    expect(log).toContain('Review PR #');
    for (const secret of sentSecrets) expect(log).not.toContain(secret);
  });
});

describe('a GitHub App’s secrets', { timeout: 180_000 }, () => {
  const APP_SECRET = 'log-secrets-app-webhook-5a7c19e3';
  const ADMIN_TOKEN = 'log-secrets-admin-token-3f81c0d2b7e4';

  it('keep the key, its JWTs and the installation tokens out of the log, the journal, deliveries show and the dashboard', async () => {
    const app = await startTestApp(['acme/alpha']);
    const gateway = await startGateway({
      args: ['--log-level', 'trace'],
      env: app.env,
      timeoutMs: 60_000,
      config: {
        agent: recordingAgent('/dev/null'),
        platforms: {
          forge: app.forgeSettings,
          webhook: {
            extra: {
              admin: { host: '127.0.0.1', port: 0, token: ADMIN_TOKEN },
              routes: {
                app: { secret: APP_SECRET, events: ['pull_request'], deliver: 'forge_comment' },
              },
            },
          },
        },
      },
    });
    const { home } = gateway;
    const cli = async (args: string[]) => {
      const result = await runCli([...args, '--home', home], { env: app.env });
      expect(result.code).toBe(0);
      return result.stdout + result.stderr;
    };
    const seen: string[] = [];
    try {
      // Delivered with a token; refused by the forge for a repository outside the installation
      // (422); refused for an installation the App does not have (404).
      const sent = [
        await sendAppDelivery(gateway.url, 'app', appPullRequest('acme/alpha'), APP_SECRET),
        await sendAppDelivery(gateway.url, 'app', appPullRequest('acme/elsewhere'), APP_SECRET),
        await sendAppDelivery(gateway.url, 'app', appPullRequest('acme/alpha', 999), APP_SECRET),
      ];
      expect(sent.map((s) => s.status)).toEqual([202, 202, 202]);
      const rows = [];
      for (const { deliveryId } of sent) rows.push(await finishedRow(home, deliveryId));
      expect(rows.map((row) => row.status)).toEqual(['delivered', 'failed', 'failed']);
      expect(rows[1]?.lastError).toMatch(/HTTP 422/);
      expect(rows[2]?.lastError).toMatch(/installation 999.*HTTP 404/);
      expect(app.forge.comments('acme/alpha', 2)).toHaveLength(1);

      // What an operator looks at: every row shown as text and JSON, the list, the dashboard.
      seen.push(await cli(['deliveries', 'list']), await cli(['deliveries', 'list', '--json']));
      const adminPort = await waitFor(
        () => gateway.logLines().find((line) => line.msg === 'admin listening')?.port as number,
        'the admin listening log line',
      );
      for (const row of await readJournal(home)) {
        seen.push(await cli(['deliveries', 'show', row.id]));
        seen.push(await cli(['deliveries', 'show', row.id, '--json']));
        for (const page of [
          `/dashboard/deliveries/${row.id}`,
          `/dashboard/fragments/deliveries/${row.id}`,
        ]) {
          const response = await fetch(`http://127.0.0.1:${adminPort}${page}`, {
            headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
          });
          expect(response.status).toBe(200);
          seen.push(await response.text());
        }
      }
    } finally {
      await gateway.stop();
      await app.close();
    }
    // The secrets the fake handed out or was shown; there must be some to look for.
    const fakeApp = app.forge.app;
    const tokens = fakeApp?.issuedTokens() ?? [];
    const jwts = fakeApp?.jwts ?? [];
    expect(tokens.length).toBeGreaterThan(0);
    expect(jwts.length).toBeGreaterThan(0);
    const keyLines = app.privateKey
      .split('\n')
      .filter((line) => /^[A-Za-z0-9+/=]{40,}$/.test(line));
    expect(keyLines.length).toBeGreaterThan(10);
    const secrets = [...tokens, ...jwts, ...keyLines, 'PRIVATE KEY'];

    // The journal's files (the database and its write-ahead log) and the log, byte for byte.
    const files = fs
      .readdirSync(home)
      .filter((name) => name.startsWith('state.db'))
      .map((name) => path.join(home, name));
    expect(files.length).toBeGreaterThan(0);
    const log = fs.readFileSync(path.join(home, 'logs', 'gateway.log'), 'utf8');
    expect(log).toContain('posted the answer as a pull request comment');
    const places: [string, string][] = [
      ...files.map((file): [string, string] => [file, fs.readFileSync(file).toString('latin1')]),
      ['gateway.log', log],
      ...seen.map((text, i): [string, string] => [`what the operator saw, #${i + 1}`, text]),
    ];
    expect(seen.join('\n')).toContain('answer for');
    const leaks = places.flatMap(([where, text]) =>
      secrets
        .filter((secret) => text.includes(secret))
        .map((secret) => `${where}: ${secret.slice(0, 12)}…`),
    );
    expect(leaks).toEqual([]);
  });
});
