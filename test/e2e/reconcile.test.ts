/**
 * Reconcile end to end: the built CLI, a SQLite journal, the real `gh` against a TLS fake of the
 * forge's API that redelivers by signing and POSTing to the gateway. The outage case is the
 * measurement of issue 19 (printed; the runs are asserted, the time is not). In GitHub App mode
 * the CLI reads the App's own log with the App's JWT, the fake verifying each one.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../packages/reconcile/src/test-support/app-keys.js';
import {
  startFakeForgeApi,
  type FakeForgeApi,
} from '../../packages/reconcile/src/test-support/fake-forge-api.js';
import { freePort } from '../../packages/reconcile/src/test-support/free-port.js';
import {
  cleanupHomes,
  makeHome,
  runCli,
  startGateway,
  waitFor,
  type StartedGateway,
} from '../support/gateway.js';
import { appendingAgent, readAppendedIds as runsIn } from '../support/journal-agents.js';
import {
  FORGE_HOOK,
  FORGE_HOOK_SECRET,
  ghEnv as ghEnvOf,
  pullRequest,
  reconcilingConfig,
} from '../support/reconcile-forge.js';

const SECRET = FORGE_HOOK_SECRET;
const HOOK = FORGE_HOOK;

let forge: FakeForgeApi;
let gateway: StartedGateway | undefined;

const ghEnv = () => ghEnvOf(forge);
const config = (port: number, runsFile: string) => reconcilingConfig(forge, { port, runsFile });

beforeEach(async () => {
  forge = await startFakeForgeApi();
});

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  await forge.close();
});

afterAll(() => cleanupHomes());

describe('reconcile with the built CLI', { timeout: 180_000 }, () => {
  it('a gateway stopped while 20 deliveries failed at the forge runs exactly those 20 once it starts', async () => {
    const home = makeHome();
    const runsFile = path.join(home, 'runs.txt');
    const port = await freePort();
    forge.addHook({ ...HOOK, url: `http://127.0.0.1:${port}/webhooks/reviews`, secret: SECRET });
    forge.pageSize = 8;

    // Up once: two deliveries arrive and run, then the gateway stops.
    gateway = await startGateway({ home, config: config(port, runsFile), env: ghEnv() });
    await forge.deliver(HOOK, { guid: 'before-1', event: 'pull_request', payload: pullRequest(1) });
    await forge.deliver(HOOK, { guid: 'before-2', event: 'pull_request', payload: pullRequest(2) });
    await waitFor(() => (runsIn(runsFile).length === 2 ? true : undefined), 'the first two runs');
    await gateway.stop();
    gateway = undefined;

    // Down: the forge tries 20 deliveries and logs each as failed (nothing answered).
    const missed: string[] = [];
    for (let n = 1; n <= 20; n++) {
      const entry = await forge.deliver(HOOK, {
        guid: `outage-${String(n).padStart(2, '0')}`,
        event: 'pull_request',
        payload: pullRequest(100 + n),
      });
      expect(entry.status_code).toBe(0);
      missed.push(entry.guid);
    }

    const startedAt = Date.now();
    gateway = await startGateway({ home, config: config(port, runsFile), env: ghEnv() });
    const runs = await waitFor(
      () => (runsIn(runsFile).length >= 22 ? runsIn(runsFile) : undefined),
      'the 20 missed deliveries to run',
      { timeoutMs: 60_000 },
    );
    const lastJournaledMs = Date.now() - startedAt;
    // Nothing more arrives: the pass asked once for each.
    await forge.settled();
    const outageRuns = runsIn(runsFile).filter((id) => id.startsWith('outage-'));
    expect(outageRuns.sort()).toEqual(missed);
    expect(runs.filter((id) => id.startsWith('before-'))).toHaveLength(2);
    expect(forge.redeliveryRequests()).toHaveLength(20);
    process.stdout.write(
      `[reconcile outage] ${outageRuns.length} runs for 20 missed deliveries; last one done ${lastJournaledMs} ms after the gateway was started\n`,
    );
    // The pass is in the log with its counts.
    const pass = await waitFor(
      () =>
        gateway
          ?.logLines()
          .find(
            (line) =>
              typeof line.msg === 'string' &&
              line.msg.startsWith('reconcile:') &&
              line.redelivered === 20,
          ),
      'the pass in the log',
    );
    expect(pass).toMatchObject({ route: 'reviews', listed: 22, journaled: 2, failed: 0 });

    // The command beside the running gateway finds nothing missing now.
    const again = await runCli(['reconcile', '--home', home, '--json'], { env: ghEnv() });
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout) as { routes: Record<string, unknown>[] };
    expect(report.routes[0]).toMatchObject({
      route: 'reviews',
      listed: 22,
      journaled: 22,
      redelivered: 0,
      failed: 0,
    });
  });

  it('webhook-gateway reconcile prints a table per route, --dry-run asks for nothing, and a failure exits 1', async () => {
    const home = makeHome();
    const runsFile = path.join(home, 'runs.txt');
    const port = await freePort();
    forge.addHook({ ...HOOK, url: `http://127.0.0.1:${port}/webhooks/reviews`, secret: SECRET });
    gateway = await startGateway({ home, config: config(port, runsFile), env: ghEnv() });
    await gateway.stop();
    gateway = undefined;
    for (const n of [1, 2, 3]) {
      await forge.deliver(HOOK, {
        guid: `cli-${n}`,
        event: 'pull_request',
        payload: pullRequest(n),
        failedWith: 502,
      });
    }

    const dry = await runCli(['reconcile', '--home', home, '--dry-run'], { env: ghEnv() });
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      /ROUTE\s+LISTED\s+JOURNALED\s+TO REDELIVER\s+FAILED\nreviews\s+3\s+0\s+3\s+0/,
    );
    expect(dry.stdout).toContain('dry run: nothing was redelivered');
    expect(forge.redeliveryRequests()).toEqual([]);

    forge.rateLimit(10, 30);
    const limited = await runCli(['reconcile', '--home', home, '--route', 'reviews'], {
      env: ghEnv(),
    });
    expect(limited.code).toBe(1);
    expect(limited.stdout).toMatch(/reviews: the forge rate-limited gh .*the next pass waits 30 s/);

    const unknown = await runCli(['reconcile', '--home', home, '--route', 'nope'], {
      env: ghEnv(),
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /--route nope: no route of that name names its forge hook \(routes with reconcile: reviews\)/,
    );
  });
});

describe('reconcile in GitHub App mode with the built CLI', { timeout: 180_000 }, () => {
  const APP_ID = 5150;
  let app: TestApp;

  beforeEach(async () => {
    // This file's forge again, now playing the App's forge too.
    await forge.close();
    app = makeTestApp();
    forge = await startFakeForgeApi({ app: { id: APP_ID, publicKey: app.publicKey } });
  });

  afterEach(() => app.cleanup());

  /** gh's environment, and the CLI (Node) trusting the fake for the App's calls. */
  const appEnv = () => ({ ...ghEnv(), NODE_EXTRA_CA_CERTS: forge.caFile });

  it('webhook-gateway reconcile --route R reads the App’s log for the App’s route, without a reconcile block', async () => {
    const home = makeHome();
    const runsFile = path.join(home, 'runs.txt');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    forge.setAppHook({ url: `${url}/webhooks/app`, secret: SECRET });
    const appConfig = {
      agent: appendingAgent(runsFile, { sleepS: 0 }),
      platforms: {
        forge: { api_url: forge.apiUrl, app: { app_id: APP_ID, private_key_file: app.keyFile } },
        webhook: {
          extra: {
            port,
            public_url: url,
            routes: { app: { secret: SECRET, events: ['pull_request'] } },
          },
        },
      },
    };
    // Up once, so the journal exists; then the App's deliveries fail while it is down.
    gateway = await startGateway({ home, config: appConfig, env: appEnv() });
    await gateway.stop();
    gateway = undefined;
    for (const n of [1, 2, 3]) {
      await forge.deliver('app', {
        guid: `app-${n}`,
        event: 'pull_request',
        payload: { ...pullRequest(n), installation: { id: 77 } },
        failedWith: 502,
      });
    }

    // No route names its hook, so a pass over every route has nothing to read.
    const all = await runCli(['reconcile', '--home', home], { env: appEnv() });
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('no route names its forge hook');

    const dry = await runCli(['reconcile', '--home', home, '--route', 'app', '--dry-run'], {
      env: appEnv(),
    });
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      /ROUTE\s+LISTED\s+JOURNALED\s+TO REDELIVER\s+FAILED\napp\s+3\s+0\s+3\s+0/,
    );
    expect(forge.redeliveryRequests()).toEqual([]);

    gateway = await startGateway({ home, config: appConfig, env: appEnv() });
    const real = await runCli(['reconcile', '--home', home, '--route', 'app', '--json'], {
      env: appEnv(),
    });
    expect(real.code).toBe(0);
    const report = JSON.parse(real.stdout) as { routes: Record<string, unknown>[] };
    expect(report.routes).toEqual([
      {
        route: 'app',
        listed: 3,
        journaled: 0,
        redelivered: 3,
        failed: 0,
        delivery_ids: ['app-1', 'app-2', 'app-3'],
      },
    ]);
    await forge.settled();
    const runs = await waitFor(
      () => (runsIn(runsFile).length >= 3 ? runsIn(runsFile) : undefined),
      'the three redeliveries to run',
    );
    expect(runs.sort()).toEqual(['app-1', 'app-2', 'app-3']);
    // Every App call carried a JWT the fake verified with the App's public key.
    expect(forge.appRequests().length).toBeGreaterThan(0);
    expect(forge.appRequests().every((call) => call.accepted)).toBe(true);
  });

  it('a route the App’s webhook does not point at is refused, naming both URLs; exit 1', async () => {
    const home = makeHome();
    const port = await freePort();
    forge.setAppHook({ url: 'https://elsewhere.example.com/hook', secret: SECRET });
    gateway = await startGateway({
      home,
      config: {
        platforms: {
          forge: {
            api_url: forge.apiUrl,
            app: { app_id: APP_ID, private_key_file: app.keyFile },
          },
          webhook: {
            extra: {
              port,
              public_url: `http://127.0.0.1:${port}`,
              routes: { app: { secret: SECRET } },
            },
          },
        },
      },
      env: appEnv(),
    });
    const result = await runCli(['reconcile', '--home', home, '--route', 'app'], {
      env: appEnv(),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `app: route "app" is not the App's route: the App's webhook sends to https://elsewhere.example.com/hook, not to http://127.0.0.1:${port}/webhooks/app`,
    );
    const unknown = await runCli(['reconcile', '--home', home, '--route', 'nope'], {
      env: appEnv(),
    });
    expect(unknown.code).toBe(2);
  });
});
