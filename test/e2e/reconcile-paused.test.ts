/**
 * A paused gateway still reconciles (issue 34): the built CLI pauses every route, the TLS fake of
 * the forge logs deliveries that never reached the gateway, and the periodic pass has the forge
 * send them again. They are journaled `queued` and none starts while the pause holds; `deliveries
 * list` shows them paused in its QUEUE column, and `resume` runs each once.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
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
import { readAppendedIds } from '../support/journal-agents.js';
import { readJournal } from '../support/journal-read.js';
import {
  FORGE_HOOK,
  FORGE_HOOK_SECRET,
  ghEnv,
  pullRequest,
  reconcilingConfig,
} from '../support/reconcile-forge.js';

/** Seconds between passes: short, so a pass comes while the test waits. */
const INTERVAL_S = 2;

let forge: FakeForgeApi;
let gateway: StartedGateway | undefined;

beforeEach(async () => {
  forge = await startFakeForgeApi();
});

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  await forge.close();
});

afterAll(() => cleanupHomes());

/** The first log line of a finished pass over `reviews` that `matches`. */
function passLogged(
  started: StartedGateway,
  matches: (line: Record<string, unknown>) => boolean,
  what: string,
): Promise<Record<string, unknown>> {
  return waitFor(
    () =>
      started
        .logLines()
        .find(
          (line) =>
            typeof line.msg === 'string' &&
            line.msg.startsWith('reconcile:') &&
            line.route === 'reviews' &&
            matches(line),
        ),
    what,
    { timeoutMs: 30_000 },
  );
}

describe('reconcile while paused, with the built CLI', { timeout: 180_000 }, () => {
  it('journals what the forge logged as failed as queued, starts none of it, and runs each once after resume', async () => {
    const home = makeHome();
    const runsFile = path.join(home, 'runs.txt');
    const port = await freePort();
    forge.addHook({
      ...FORGE_HOOK,
      url: `http://127.0.0.1:${port}/webhooks/reviews`,
      secret: FORGE_HOOK_SECRET,
    });
    gateway = await startGateway({
      home,
      config: reconcilingConfig(forge, { port, runsFile, intervalS: INTERVAL_S }),
      env: ghEnv(forge),
    });
    const started = gateway;

    const paused = await runCli(['pause', '--reason', 'model provider outage', '--home', home]);
    expect(paused.code).toBe(0);
    await waitFor(async () => {
      const health = (await (await fetch(`${started.url}/health`)).json()) as {
        paused: { route: string | null }[];
      };
      return health.paused.some((pause) => pause.route === null) || undefined;
    }, '/health to list every route as paused');

    // A proxy in front of the gateway answered 502: the forge logged each as failed.
    const missed: string[] = [];
    for (let n = 1; n <= 5; n++) {
      const entry = await forge.deliver(FORGE_HOOK, {
        guid: `paused-${n}`,
        event: 'pull_request',
        payload: pullRequest(n),
        failedWith: 502,
      });
      missed.push(entry.guid);
    }

    await passLogged(
      started,
      (line) => line.redelivered === 5 && line.failed === 0,
      'a pass to ask for the five missed deliveries',
    );
    await forge.settled();
    const rowsOf = async () => {
      const rows = await readJournal(home);
      return missed.map((guid) => rows.filter((row) => row.deliveryId === guid));
    };
    const journaled = await rowsOf();
    expect(journaled.map((rows) => rows.length)).toEqual([1, 1, 1, 1, 1]);
    for (const [row] of journaled) {
      expect(row).toMatchObject({ route: 'reviews', status: 'queued', attempts: 0 });
      expect(row?.attemptLog).toEqual([]);
    }

    // A later pass, still paused, finds them in the journal and asks for nothing.
    await passLogged(
      started,
      (line) => line.journaled === 5 && line.redelivered === 0,
      'a later pass to find the five journaled',
    );
    expect(readAppendedIds(runsFile)).toEqual([]);
    expect((await rowsOf()).map(([row]) => row?.status)).toEqual(Array(5).fill('queued'));

    const listed = await runCli(['deliveries', 'list', '--route', 'reviews', '--home', home]);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.split('\n');
    expect(lines[0]).toMatch(/^paused: every route since \S+Z — model provider outage$/);
    expect(lines[1]).toMatch(/QUEUE$/);
    const places = missed.map(
      (guid) => lines.find((line) => line.includes(guid))?.match(/(\S+), paused$/)?.[1],
    );
    expect(places).toEqual(['1st', '2nd', '3rd', '4th', '5th']);

    const resumed = await runCli(['resume', '--home', home]);
    expect(resumed.code).toBe(0);
    await waitFor(
      async () => (await rowsOf()).every(([row]) => row?.status === 'delivered') || undefined,
      'the five to be delivered after resume',
      { timeoutMs: 30_000 },
    );
    expect(readAppendedIds(runsFile).sort()).toEqual(missed);
    expect((await rowsOf()).map((rows) => rows.length)).toEqual([1, 1, 1, 1, 1]);
  });
});
