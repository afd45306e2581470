/**
 * Reconcile in GitHub App mode: the App's route (the one its webhook points at) is read back from
 * the App's own delivery log, `GET /app/hook/deliveries`, and redelivered with
 * `POST /app/hook/deliveries/{id}/attempts`, both with the App's JWT, against a fake forge over
 * TLS on 127.0.0.1 that verifies each JWT with the App's public key and redelivers to the real
 * gateway. Repository hooks are still read through the real `gh`, at `platforms.forge.api_url`.
 */
import { settingsIn, type GatewayConfig } from '@webhook-gateway/core';
import { waitFor } from '@webhook-gateway/core/testing';
import forgeCommentPlugin from '@webhook-gateway/deliver-forge-comment';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runReconcilePass } from './reconcile-pass.js';
import { makeTestApp, trustFakeForge, type TestApp } from './test-support/app-keys.js';
import { startFakeForgeApi, type FakeForgeApi } from './test-support/fake-forge-api.js';
import { freePort } from './test-support/free-port.js';
import { startReconcileGateway, type ReconcileGateway } from './test-support/gateway.js';

const forgesOf = (config: GatewayConfig) => settingsIn(forgeCommentPlugin, config);

const APP_ID = 31337;
const INSTALLATION = 808;
const APP_SECRET = 'app-webhook-secret-for-tests';
const REPO_SECRET = 'repo-hook-secret-for-tests';
const REPO_HOOK = { owner: 'repos/octo/legacy', id: 12 };
const HOUR = 3_600_000;

let app: TestApp;
let forge: FakeForgeApi;
let untrust: () => void;
let gateway: ReconcileGateway | undefined;
const savedEnv = { ...process.env };

beforeEach(async () => {
  app = makeTestApp();
  forge = await startFakeForgeApi({ app: { id: APP_ID, publicKey: app.publicKey } });
  untrust = trustFakeForge(forge.caFile);
  // gh (for repository hooks) trusts the fake through SSL_CERT_FILE; no ambient credentials.
  process.env.SSL_CERT_FILE = forge.caFile;
  for (const name of ['GH_TOKEN', 'GITHUB_TOKEN', 'GH_ENTERPRISE_TOKEN', 'GH_HOST'])
    delete process.env[name];
  process.env.GH_CONFIG_DIR = '/nonexistent/gh-config-for-tests';
});

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  untrust();
  await forge.close();
  app.cleanup();
  for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
});

/** A pull request event as the App's webhook sends it: with the installation. */
function pullRequest(number: number): object {
  return {
    action: 'opened',
    number,
    pull_request: { number, title: `PR ${number}` },
    repository: { full_name: 'acme/widgets' },
    installation: { id: INSTALLATION },
  };
}

/**
 * A gateway whose `app` route the App's webhook points at (unless `hookUrl` says otherwise), and
 * whose `legacy` route receives a repository hook.
 */
async function gatewayWith(
  options: {
    appReconcile?: Record<string, unknown> | null;
    periodic?: boolean;
    keyFile?: string;
    hookUrl?: (url: string) => string;
    before?: (url: string) => Promise<void>;
  } = {},
): Promise<ReconcileGateway> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  forge.setAppHook({ url: options.hookUrl?.(url) ?? `${url}/webhooks/app`, secret: APP_SECRET });
  forge.addHook({ ...REPO_HOOK, url: `${url}/webhooks/legacy`, secret: REPO_SECRET });
  await options.before?.(url);
  const appReconcile = options.appReconcile === undefined ? { hook: 'app' } : options.appReconcile;
  gateway = await startReconcileGateway({
    port,
    periodic: options.periodic ?? false,
    routes: {
      app: {
        secret: APP_SECRET,
        events: ['pull_request'],
        ...(appReconcile ? { reconcile: appReconcile } : {}),
      },
      legacy: {
        secret: REPO_SECRET,
        events: ['pull_request'],
        reconcile: { repo: 'octo/legacy', hook_id: REPO_HOOK.id },
      },
    },
    platforms: {
      forge: {
        // No host: gh's host and the App's calls both come from api_url.
        api_url: forge.apiUrl,
        token: forge.token,
        app: { app_id: APP_ID, private_key_file: options.keyFile ?? app.keyFile },
      },
    },
    extra: { reconcile_interval_s: 3600, public_url: url },
  });
  return gateway;
}

/** Logs `count` App deliveries that never reached the gateway, oldest first. */
async function missedAppDeliveries(count: number, prefix: string): Promise<string[]> {
  const guids: string[] = [];
  for (let n = 1; n <= count; n++) {
    const guid = `${prefix}-${n}`;
    await forge.deliver('app', {
      guid,
      event: 'pull_request',
      payload: pullRequest(n),
      at: new Date(Date.now() - (count - n + 1) * 60_000),
      failedWith: n % 2 === 0 ? 502 : 0,
    });
    guids.push(guid);
  }
  return guids;
}

const pass = (g: ReconcileGateway, routes?: string[]) =>
  runReconcilePass({
    config: g.config,
    forges: forgesOf(g.config),
    store: g.store,
    home: '/nonexistent/home',
    window: { sinceMs: Date.now() - 24 * HOUR },
    ...(routes ? { routes } : {}),
  });

describe('reconcile in GitHub App mode', () => {
  it('reconcile: { hook: app } turns on the periodic pass: what the App logged while the gateway was down runs once', async () => {
    const g = await gatewayWith({
      periodic: true,
      before: async () => {
        await missedAppDeliveries(3, 'down');
      },
    });
    await waitFor(() => g.passes.length === 1, 'the first pass', { timeoutMs: 20_000 });
    expect(g.passes[0]?.routes.find((r) => r.route === 'app')).toMatchObject({
      listed: 3,
      journaled: 0,
      redelivered: 3,
      failed: 0,
    });
    await g.delivered(3, 'the redeliveries to run');
    expect([...g.runs.entries()].sort()).toEqual([
      ['down-1', 1],
      ['down-2', 1],
      ['down-3', 1],
    ]);
    // Every App call carried a JWT the fake verified with the App's public key.
    const calls = forge.appRequests();
    expect(calls.map((c) => c.request)).toEqual(
      expect.arrayContaining([
        'GET /api/v3/app/hook/config',
        'GET /api/v3/app/hook/deliveries',
        expect.stringMatching(/^POST \/api\/v3\/app\/hook\/deliveries\/\d+\/attempts$/),
      ]),
    );
    expect(calls.every((c) => c.accepted)).toBe(true);
    expect(calls.filter((c) => c.request.endsWith('/attempts'))).toHaveLength(3);
    expect(await g.store.readCursor(`reconcile:${forge.host}:app/hook`)).toMatch(/"newestMs":\d+/);
  });

  it('--route R reads the App’s log for the App’s route without a reconcile block, page by page', async () => {
    const g = await gatewayWith({ appReconcile: null });
    forge.pageSize = 2;
    const missed = await missedAppDeliveries(5, 'paged');
    await forge.deliver('app', {
      guid: 'reached',
      event: 'pull_request',
      payload: pullRequest(6),
    });
    // Without the block, the periodic pass and a pass over every route leave it alone.
    expect((await pass(g)).routes.map((r) => r.route)).toEqual(['legacy']);

    const result = await pass(g, ['app']);
    expect(result.routes).toHaveLength(1);
    expect(result.routes[0]).toMatchObject({
      route: 'app',
      listed: 6,
      journaled: 1,
      redelivered: 5,
      failed: 0,
      redeliveredGuids: missed,
    });
    expect(
      forge.requests().filter((r) => r.startsWith('GET /api/v3/app/hook/deliveries?')),
    ).toEqual(
      expect.arrayContaining([
        'GET /api/v3/app/hook/deliveries?per_page=100',
        expect.stringMatching(/cursor=v1_\d+/),
      ]),
    );
    await forge.settled();
    await g.delivered(6, 'the redeliveries to run');
    for (const guid of [...missed, 'reached']) expect(g.runs.get(guid)).toBe(1);
  });

  it('a route the App’s webhook does not point at is not the App’s route: nothing is listed or asked for', async () => {
    const g = await gatewayWith({
      appReconcile: null,
      hookUrl: () => 'https://elsewhere.example.com/webhooks/app',
    });
    await missedAppDeliveries(1, 'elsewhere');
    const result = await pass(g, ['app']);
    expect(result.routes[0]?.error).toBe(
      `route "app" is not the App's route: the App's webhook sends to https://elsewhere.example.com/webhooks/app, not to ${g.url}/webhooks/app; point the App's webhook at it (the App's settings, Webhook URL) or fix platforms.webhook.extra.public_url`,
    );
    expect(forge.appRequests().map((c) => c.request)).toEqual(['GET /api/v3/app/hook/config']);
    expect(forge.redeliveryRequests()).toEqual([]);
  });

  it('a JWT the forge refuses (another key) is reported as the App not authenticated, with what to check', async () => {
    const other = makeTestApp();
    try {
      const g = await gatewayWith({ keyFile: other.keyFile });
      const result = await pass(g, ['app']);
      expect(result.routes[0]?.error).toBe(
        'the App is not authenticated (HTTP 401: A JSON web token could not be decoded); check platforms.forge.app (the App ID and its private key) and platforms.forge.api_url',
      );
      expect(forge.appRequests()).toEqual([
        { request: 'GET /api/v3/app/hook/config', accepted: false },
      ]);
    } finally {
      other.cleanup();
    }
  });

  it('repository hooks stay as they are: read through gh at api_url’s host with the token, beside the App’s route', async () => {
    const g = await gatewayWith();
    await missedAppDeliveries(1, 'app');
    await forge.deliver(REPO_HOOK, {
      guid: 'legacy-missed',
      event: 'pull_request',
      payload: { ...pullRequest(9), installation: undefined },
      failedWith: 502,
    });
    const result = await pass(g);
    expect(result.routes.map((r) => [r.route, r.error, r.redeliveredGuids])).toEqual([
      ['app', undefined, ['app-1']],
      ['legacy', undefined, ['legacy-missed']],
    ]);
    // gh went to api_url's host (no platforms.forge.host is set), with the token, not the JWT.
    expect(forge.requests()).toContain(
      'GET /api/v3/repos/octo/legacy/hooks/12/deliveries?per_page=100',
    );
    expect(forge.appRequests().every((c) => c.accepted)).toBe(true);
    await forge.settled();
    await g.delivered(2, 'both redeliveries to run');
  });
});
