/**
 * Pause, resume and drain against the built CLI and a real SQLite journal: a pause made by
 * `webhook-gateway pause` holds across a restart while deliveries are still accepted, `resume`
 * runs them in order, what cannot be paused or resumed says so, and `drain` lets the running
 * attempt finish while `/ready` answers 503, then the gateway exits 0.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendingAgent, readAppendedIds } from '../support/journal-agents.js';
import { readJournal } from '../support/journal-read.js';
import { pullRequestBody } from '../support/journal-stream.js';
import {
  cleanupHomes,
  cliPath,
  makeHome,
  runCli,
  startGateway,
  waitFor,
  type StartedGateway,
} from '../support/gateway.js';
import { newDeliveryId, sendForge } from '../support/requests.js';

const SECRET = 'pause-secret-0123456789';

afterAll(() => cleanupHomes());

interface HealthBody {
  status: string;
  paused: { route: string | null; since: string }[];
}

async function health(gateway: StartedGateway): Promise<HealthBody> {
  return (await (await fetch(`${gateway.url}/health`)).json()) as HealthBody;
}

/** Waits until the gateway's `/health` lists `route` as paused (it reads pauses every second). */
function pausedOn(gateway: StartedGateway, route: string | null): Promise<true | undefined> {
  return waitFor(
    async () => ((await health(gateway)).paused.some((p) => p.route === route) ? true : undefined),
    `/health to list ${route ?? 'every route'} as paused`,
  );
}

async function statusesOf(home: string, deliveryIds: string[]): Promise<string[]> {
  const rows = await readJournal(home);
  return deliveryIds.map((id) => rows.find((row) => row.deliveryId === id)?.status ?? 'none');
}

describe('pause and resume on SQLite', () => {
  it('holds a pause made by the CLI across a restart, accepting meanwhile, then resume runs the queue in order', async () => {
    const home = makeHome();
    const agentFile = path.join(home, 'agent-runs.txt');
    const config = {
      agent: appendingAgent(agentFile),
      platforms: {
        webhook: { extra: { secret: SECRET, concurrency: 1, routes: { reviews: {}, pushes: {} } } },
      },
    };
    let gateway = await startGateway({ home, config });
    try {
      const paused = await runCli([
        'pause',
        '--route',
        'reviews',
        '--reason',
        'model provider outage',
        '--home',
        home,
      ]);
      expect(paused.code).toBe(0);
      expect(paused.stdout).toMatch(/^paused: route reviews since \S+Z — model provider outage$/m);
      await pausedOn(gateway, 'reviews');

      const ids = [newDeliveryId(), newDeliveryId(), newDeliveryId()];
      for (const [index, deliveryId] of ids.entries()) {
        const sent = await sendForge(gateway.url, 'reviews', {
          body: pullRequestBody(index + 1),
          secret: SECRET,
          event: 'pull_request',
          deliveryId,
        });
        expect(sent.status).toBe(202);
      }
      // Another route still runs, so the gateway is working, only the paused route waits.
      const pushId = newDeliveryId();
      await sendForge(gateway.url, 'pushes', {
        body: pullRequestBody(9),
        secret: SECRET,
        event: 'pull_request',
        deliveryId: pushId,
      });
      await waitFor(() => readAppendedIds(agentFile).includes(pushId), 'the push to run');
      expect(await statusesOf(home, ids)).toEqual(['queued', 'queued', 'queued']);

      const listed = await runCli(['deliveries', 'list', '--home', home]);
      expect(listed.code).toBe(0);
      expect(listed.stdout.split('\n')[0]).toMatch(
        /^paused: route reviews since \S+Z — model provider outage$/,
      );

      expect(await gateway.stop()).toBe(0);
      gateway = await startGateway({ home });
      // Read from the journal before the queue starts: listed as soon as the gateway serves.
      expect((await health(gateway)).paused).toEqual([
        { route: 'reviews', since: expect.stringMatching(/Z$/) as unknown },
      ]);
      expect(await statusesOf(home, ids)).toEqual(['queued', 'queued', 'queued']);
      expect(readAppendedIds(agentFile)).toEqual([pushId]);

      const resumed = await runCli(['resume', '--route', 'reviews', '--home', home]);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toMatch(/^resumed: route reviews \(paused since \S+Z\)$/m);
      await waitFor(
        async () => (await statusesOf(home, ids)).every((status) => status === 'delivered'),
        'the three reviews to be delivered',
        { timeoutMs: 30_000 },
      );
      expect(readAppendedIds(agentFile)).toEqual([pushId, ...ids]);
      expect((await health(gateway)).paused).toEqual([]);
    } finally {
      await gateway.stop();
    }
  });

  it('refuses a pause of an unknown route, and says a resume of what is not paused changes nothing', async () => {
    const home = makeHome();
    const gateway = await startGateway({
      home,
      config: { platforms: { webhook: { extra: { secret: SECRET, routes: { reviews: {} } } } } },
    });
    try {
      const unknown = await runCli(['pause', '--route', 'reveiws', '--home', home]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr.trim()).toBe(
        'error: --route reveiws: no route of that name (routes: reviews)',
      );

      const notPaused = await runCli(['resume', '--route', 'reviews', '--home', home]);
      expect(notPaused.code).toBe(0);
      expect(notPaused.stdout.trim()).toBe('route reviews is not paused; nothing to resume');

      const all = await runCli(['pause', '--home', home, '--json']);
      expect(all.code).toBe(0);
      expect(JSON.parse(all.stdout)).toMatchObject({
        added: true,
        pause: { route: null, reason: null },
      });
      const again = await runCli(['pause', '--home', home]);
      expect(again.stdout).toMatch(/^already paused: every route since \S+Z; nothing changed$/m);
      await pausedOn(gateway, null);

      const one = await runCli(['resume', '--route', 'reviews', '--home', home]);
      expect(one.stdout.trim()).toMatch(
        /^route reviews is not paused; nothing to resume\nroute reviews still waits: every route since \S+Z \(resume without --route lifts it\)$/,
      );
      const every = await runCli(['resume', '--home', home]);
      expect(every.stdout.trim()).toMatch(/^resumed: every route \(paused since \S+Z\)$/);
      const nothing = await runCli(['resume', '--home', home]);
      expect(nothing.stdout.trim()).toBe('nothing is paused; nothing to resume');
    } finally {
      await gateway.stop();
    }
  });
});

describe('drain', () => {
  it('lets the running attempt finish while /ready answers 503 and webhooks are refused, then exits 0', async () => {
    const home = makeHome();
    const agentFile = path.join(home, 'agent-runs.txt');
    const gateFile = path.join(home, 'gate');
    const running = newDeliveryId();
    const gateway = await startGateway({
      home,
      config: {
        agent: appendingAgent(agentFile, { gate: { idPattern: running, file: gateFile } }),
        platforms: {
          webhook: {
            extra: {
              secret: SECRET,
              drain_refuse: true,
              shutdown_timeout_s: 60,
              routes: { r: {} },
            },
          },
        },
      },
    });
    const exited = new Promise<number | null>((resolve) =>
      gateway.child.once('exit', (code) => resolve(code)),
    );
    let drain: ReturnType<typeof spawn> | undefined;
    try {
      expect((await fetch(`${gateway.url}/ready`)).status).toBe(200);
      const sent = await sendForge(gateway.url, 'r', {
        body: pullRequestBody(1),
        secret: SECRET,
        event: 'pull_request',
        deliveryId: running,
      });
      expect(sent.status).toBe(202);
      await waitFor(async () => (await statusesOf(home, [running]))[0] === 'running', 'running');

      const drainer = spawn(process.execPath, [cliPath, 'drain', '--home', home], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      drain = drainer;
      let drainOut = '';
      drainer.stdout.setEncoding('utf8').on('data', (chunk: string) => (drainOut += chunk));
      const drained = new Promise<number | null>((resolve) =>
        drainer.once('exit', (code) => resolve(code)),
      );

      const ready = await waitFor(async () => {
        const response = await fetch(`${gateway.url}/ready`);
        return response.status === 503 ? response : undefined;
      }, '/ready to answer 503');
      expect(await ready.json()).toEqual({ status: 'draining' });
      expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
      const refused = await sendForge(gateway.url, 'r', {
        body: pullRequestBody(2),
        secret: SECRET,
        event: 'pull_request',
      });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: 'Draining; retry later' });
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(gateway.child.exitCode).toBeNull();

      fs.writeFileSync(gateFile, '');
      expect(await exited).toBe(0);
      expect(await drained).toBe(0);
      expect(drainOut).toMatch(/drained and exited/);
      expect(await statusesOf(home, [running])).toEqual(['delivered']);
      expect(fs.existsSync(path.join(home, 'gateway.pid'))).toBe(false);
    } finally {
      drain?.kill('SIGKILL');
      await gateway.kill();
    }
  });

  it('says there is nothing to drain when no gateway serves from the home', async () => {
    const home = makeHome();
    fs.writeFileSync(
      path.join(home, 'config.yaml'),
      'platforms: { webhook: { extra: { routes: {} } } }\n',
    );
    const result = await runCli(['drain', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no gateway serves from ${home}`);
  });
});
