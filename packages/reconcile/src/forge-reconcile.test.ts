/**
 * Reconcile against the forge with the real `gh` (/usr/bin/gh) talking to a GitHub-API-compatible
 * fake over TLS on 127.0.0.1; the fake redelivers by signing and POSTing to the real gateway.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runReconcilePass } from './reconcile-pass.js';
import { startFakeForgeApi, type FakeForgeApi } from './test-support/fake-forge-api.js';
import { freePort } from './test-support/free-port.js';
import { startReconcileGateway, type ReconcileGateway } from './test-support/gateway.js';
import { settingsIn, type GatewayConfig } from '@webhook-gateway/core';
import { waitFor } from '@webhook-gateway/core/testing';
import forgeCommentPlugin from '@webhook-gateway/deliver-forge-comment';

const forgesOf = (config: GatewayConfig) => settingsIn(forgeCommentPlugin, config);

const SECRET = 'forge-hook-secret-for-tests';
const HOOK = { owner: 'repos/octo/repo', id: 12 };
const HOUR = 3_600_000;

let forge: FakeForgeApi;
let gateway: ReconcileGateway | undefined;
const savedEnv = { ...process.env };

beforeEach(async () => {
  forge = await startFakeForgeApi();
  // gh is Go: it trusts the fake's certificate through SSL_CERT_FILE; no ambient credentials.
  process.env.SSL_CERT_FILE = forge.caFile;
  for (const name of [
    'GH_TOKEN',
    'GITHUB_TOKEN',
    'GH_ENTERPRISE_TOKEN',
    'GITHUB_ENTERPRISE_TOKEN',
    'GH_HOST',
  ])
    delete process.env[name];
  process.env.GH_CONFIG_DIR = '/nonexistent/gh-config-for-tests';
});

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  await forge.close();
  for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
});

function pullRequest(number: number): object {
  return {
    action: 'opened',
    number,
    pull_request: { number, title: `PR ${number}` },
    repository: { full_name: 'octo/repo' },
  };
}

async function gatewayWith(
  options: {
    reconcile?: Record<string, unknown>;
    token?: string;
    cli?: string;
    periodic?: boolean;
    publicUrl?: boolean;
  } = {},
) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  forge.addHook({ ...HOOK, url: `${url}/webhooks/reviews`, secret: SECRET });
  gateway = await startReconcileGateway({
    port,
    periodic: options.periodic ?? false,
    routes: {
      reviews: {
        secret: SECRET,
        events: ['pull_request'],
        reconcile: options.reconcile ?? { repo: 'octo/repo', hook_id: HOOK.id },
      },
    },
    platforms: {
      forge: {
        host: forge.host,
        token: options.token ?? forge.token,
        ...(options.cli ? { cli: options.cli } : {}),
      },
    },
    extra: { reconcile_interval_s: 3600, ...(options.publicUrl ? { public_url: url } : {}) },
  });
  return gateway;
}

/**
 * The forge's log over several pages: 3 that reached the gateway, 1 the gateway journaled but the
 * forge logged as timed out (status 0), 1 ping ignored with 200, 4 that failed (502 or 0) while
 * the gateway was unreachable, and 1 failed one older than the window.
 */
async function seedLog(g: ReconcileGateway) {
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
  await forge.deliver(HOOK, {
    guid: 'reached-1',
    event: 'pull_request',
    payload: pullRequest(1),
    at: at(50),
  });
  await forge.deliver(HOOK, {
    guid: 'missed-502-a',
    event: 'pull_request',
    payload: pullRequest(2),
    at: at(45),
    failedWith: 502,
  });
  await forge.deliver(HOOK, {
    guid: 'reached-2',
    event: 'pull_request',
    payload: pullRequest(3),
    at: at(40),
  });
  await forge.deliver(HOOK, {
    guid: 'missed-0-a',
    event: 'pull_request',
    payload: pullRequest(4),
    at: at(35),
    failedWith: 0,
  });
  await forge.deliver(HOOK, {
    guid: 'journaled-but-timed-out',
    event: 'pull_request',
    payload: pullRequest(5),
    at: at(30),
    loggedAs: 0,
  });
  await forge.deliver(HOOK, {
    guid: 'ping-ignored',
    event: 'ping',
    payload: { zen: 'Keep it logically awesome.', hook_id: 12 },
    at: at(25),
  });
  await forge.deliver(HOOK, {
    guid: 'missed-502-b',
    event: 'pull_request',
    payload: pullRequest(6),
    at: at(20),
    failedWith: 502,
  });
  await forge.deliver(HOOK, {
    guid: 'reached-3',
    event: 'pull_request',
    payload: pullRequest(7),
    at: at(15),
  });
  await forge.deliver(HOOK, {
    guid: 'missed-0-b',
    event: 'pull_request',
    payload: pullRequest(8),
    at: at(10),
    failedWith: 0,
  });
  await forge.deliver(HOOK, {
    guid: 'too-old',
    event: 'pull_request',
    payload: pullRequest(9),
    at: at(26 * 60),
    failedWith: 502,
  });
  // The four that did reach the gateway are journaled and run once each.
  await g.delivered(4, 'the four reached deliveries to run');
}

const MISSED = ['missed-502-a', 'missed-0-a', 'missed-502-b', 'missed-0-b'];

describe('reconcile with the forge through gh', () => {
  it('redelivers exactly the missing failed deliveries, each runs once, and a second pass redelivers nothing', async () => {
    const g = await gatewayWith();
    forge.pageSize = 3;
    await seedLog(g);

    const first = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { sinceMs: Date.now() - 24 * HOUR },
    });
    expect(first.routes).toHaveLength(1);
    const [counts] = first.routes;
    expect(counts?.error).toBeUndefined();
    expect(counts).toMatchObject({
      route: 'reviews',
      listed: 9,
      journaled: 4,
      redelivered: 4,
      failed: 0,
    });
    expect(counts?.redeliveredGuids).toEqual(MISSED);
    // Several Link-cursor pages were followed.
    expect(
      forge
        .requests()
        .filter((r) => r.includes('/deliveries?'))
        .some((r) => r.includes('cursor=v1_')),
    ).toBe(true);

    await forge.settled();
    const delivered = await g.delivered(8, 'the redeliveries to run');
    expect(delivered.map((r) => r.deliveryId).sort()).toEqual(
      [...MISSED, 'reached-1', 'reached-2', 'reached-3', 'journaled-but-timed-out'].sort(),
    );
    for (const guid of [...MISSED, 'reached-1', 'journaled-but-timed-out'])
      expect(g.runs.get(guid)).toBe(1);
    expect(g.runs.has('ping-ignored')).toBe(false);
    expect(g.runs.has('too-old')).toBe(false);

    const second = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { sinceMs: Date.now() - 24 * HOUR },
    });
    expect(second.routes[0]).toMatchObject({ listed: 9, journaled: 8, redelivered: 0, failed: 0 });
    expect(forge.redeliveryRequests()).toHaveLength(4);
  });

  it('--dry-run lists what it would redeliver and asks the forge for nothing', async () => {
    const g = await gatewayWith();
    await seedLog(g);
    const pass = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { sinceMs: Date.now() - 24 * HOUR },
      dryRun: true,
    });
    expect(pass.routes[0]).toMatchObject({ redelivered: 4, failed: 0, redeliveredGuids: MISSED });
    expect(forge.redeliveryRequests()).toEqual([]);
    expect(
      await g.store.readCursor(`reconcile:${forge.host}:repos/octo/repo/hooks/12`),
    ).toBeUndefined();
  });

  it('finds the hook by its URL with hook_id: auto', async () => {
    const g = await gatewayWith({
      reconcile: { repo: 'octo/repo', hook_id: 'auto' },
      publicUrl: true,
    });
    await forge.deliver(HOOK, {
      guid: 'auto-missed',
      event: 'pull_request',
      payload: pullRequest(1),
      failedWith: 502,
    });
    const pass = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(pass.routes[0]).toMatchObject({ redelivered: 1, redeliveredGuids: ['auto-missed'] });
  });

  it('reads an organization hook under orgs/{org}', async () => {
    const orgHook = { owner: 'orgs/acme', id: 9 };
    const g = await gatewayWith({ reconcile: { org: 'acme', hook_id: orgHook.id } });
    forge.addHook({ ...orgHook, url: `${g.url}/webhooks/reviews`, secret: SECRET });
    await forge.deliver(orgHook, {
      guid: 'org-missed',
      event: 'pull_request',
      payload: pullRequest(1),
      failedWith: 502,
    });
    const pass = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(pass.routes[0]).toMatchObject({ redelivered: 1, redeliveredGuids: ['org-missed'] });
    expect(forge.requests()).toContain('GET /api/v3/orgs/acme/hooks/9/deliveries?per_page=100');
    await forge.settled();
    await g.delivered(1, 'it to run');
  });

  it('the gateway reconciles at start: the missed deliveries run once, the pass is reported', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    forge.addHook({ ...HOOK, url: `${url}/webhooks/reviews`, secret: SECRET });
    // Logged while the gateway was down.
    for (const n of [1, 2, 3])
      await forge.deliver(HOOK, {
        guid: `down-${n}`,
        event: 'pull_request',
        payload: pullRequest(n),
        failedWith: 0,
      });
    gateway = await startReconcileGateway({
      port,
      periodic: true,
      routes: { reviews: { secret: SECRET, reconcile: { repo: 'octo/repo', hook_id: HOOK.id } } },
      platforms: { forge: { host: forge.host, token: forge.token } },
      extra: { reconcile_interval_s: 3600 },
    });
    const g = gateway;
    await waitFor(() => g.passes.length === 1, 'the first pass', {
      describe: () => `${g.passes.length} passes`,
    });
    expect(g.passes[0]?.routes[0]).toMatchObject({
      route: 'reviews',
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
    expect(await g.store.readCursor(`reconcile:${forge.host}:repos/octo/repo/hooks/12`)).toMatch(
      /"newestMs":\d+/,
    );
  });
});

describe('reconcile failures are reported, not thrown', () => {
  it('a rate-limited listing is reported with the wait the forge asked for', async () => {
    const g = await gatewayWith();
    await forge.deliver(HOOK, {
      guid: 'limited-1',
      event: 'pull_request',
      payload: pullRequest(1),
      failedWith: 502,
    });
    forge.rateLimit(5, 42);
    const pass = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(pass.routes[0]?.error).toMatch(
      /rate-limited gh \(HTTP 403: You have exceeded a secondary rate limit\.\); the next pass waits 42 s/,
    );
    expect(pass.retryAfterMs).toBe(42_000);
    expect(forge.redeliveryRequests()).toEqual([]);
  });

  it('redeliveries refused by a rate limit count as failed, and the next pass asks for them again', async () => {
    const g = await gatewayWith();
    await forge.deliver(HOOK, {
      guid: 'later-1',
      event: 'pull_request',
      payload: pullRequest(1),
      failedWith: 502,
    });
    await forge.deliver(HOOK, {
      guid: 'later-2',
      event: 'pull_request',
      payload: pullRequest(2),
      failedWith: 0,
    });
    // The listing (one call) goes through; the first redelivery request is limited.
    forge.rateLimit(1, 7, 1);
    const limited = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(limited.routes[0]).toMatchObject({ listed: 2, redelivered: 0, failed: 2 });
    expect(limited.retryAfterMs).toBe(7_000);
    expect(forge.redeliveryRequests()).toEqual([]);

    const next = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(next.routes[0]).toMatchObject({
      redelivered: 2,
      failed: 0,
      redeliveredGuids: ['later-1', 'later-2'],
    });
    await forge.settled();
    await g.delivered(2, 'both to run');
  });

  it('a token the forge refuses is reported as not authenticated, with what to do', async () => {
    const g = await gatewayWith({ token: 'ghp_wrong_token' });
    const pass = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(pass.routes[0]?.error).toMatch(
      /gh is not authenticated \(HTTP 401: Bad credentials\); run "gh auth login" or set platforms\.forge\.token/,
    );
  });

  it('gh without any credentials is reported as not authenticated', async () => {
    const g = await gatewayWith();
    const config = structuredClone(g.config);
    (config.platforms as Record<string, { token?: string }>).forge!.token = undefined;
    const pass = await runReconcilePass({
      config,
      forges: forgesOf(config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(pass.routes[0]?.error).toMatch(/not authenticated/);
  });

  it('an unknown hook is reported with the key to check and the right the token needs', async () => {
    const g = await gatewayWith({ reconcile: { repo: 'octo/repo', hook_id: 99 } });
    const pass = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(pass.routes[0]?.error).toMatch(
      /repos\/octo\/repo\/hooks\/99 was not found \(HTTP 404: Not Found\); check platforms\.webhook\.extra\.routes\.reviews\.reconcile.*admin:repo_hook/,
    );
  });

  it('a missing forge CLI is reported with the key that names it', async () => {
    const g = await gatewayWith({ cli: '/nonexistent/bin/gh' });
    const pass = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(pass.routes[0]?.error).toMatch(
      /\/nonexistent\/bin\/gh could not be run \(ENOENT\); install it or set platforms\.forge\.cli/,
    );
  });
});
