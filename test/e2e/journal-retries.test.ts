/**
 * Retries, the dead letter, redelivery after a final failure and `deliveries replay`, through a
 * running gateway whose target is a fake Slack Web API on 127.0.0.1 that fails on demand.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendingAgent, readAppendedIds } from '../support/journal-agents.js';
import {
  fakeSlackPlatform,
  hasWord,
  startFakeSlack,
  type FakeSlack,
} from '../support/journal-messenger.js';
import {
  listDeliveries,
  readJournal,
  showDelivery,
  type ListedDelivery,
} from '../support/journal-read.js';
import { pullRequestBody } from '../support/journal-stream.js';
import {
  cleanupHomes,
  makeHome,
  runCli,
  startGateway,
  waitFor,
  type StartedGateway,
} from '../support/gateway.js';
import { newDeliveryId, sendForge } from '../support/requests.js';

const SECRET = 'retries-secret-0123456789';
let slack: FakeSlack;
let gateway: StartedGateway;
let home: string;
let agentFile: string;

beforeAll(async () => {
  slack = await startFakeSlack();
  home = makeHome();
  agentFile = path.join(home, 'agent-runs.txt');
  gateway = await startGateway({
    home,
    config: {
      agent: appendingAgent(agentFile, { sleepS: 0 }),
      platforms: {
        webhook: {
          extra: {
            secret: SECRET,
            max_attempts: 5,
            retry_backoff_ms: 50,
            routes: {
              // Uses the global max_attempts (5).
              flaky: { deliver: 'messenger_c' },
              // Gives up sooner.
              doomed: { deliver: 'messenger_c', max_attempts: 3 },
            },
          },
        },
        messenger_c: fakeSlackPlatform(slack),
      },
    },
  });
});

afterAll(async () => {
  await gateway.stop();
  await slack.close();
  cleanupHomes();
});

async function send(route: string, deliveryId: string, number = 1) {
  return sendForge(gateway.url, route, {
    body: pullRequestBody(number),
    secret: SECRET,
    event: 'pull_request',
    deliveryId,
  });
}

/**
 * Waits until the newest journal row of `deliveryId` has `status` (polling the file, cheaper than
 * a CLI process per poll), then gives that row as `deliveries list --json` shows it.
 */
async function waitForStatus(
  deliveryId: string,
  status: ListedDelivery['status'],
): Promise<ListedDelivery> {
  await waitFor(
    async () =>
      (await readJournal(home)).find((r) => r.deliveryId === deliveryId)?.status === status
        ? true
        : undefined,
    `${deliveryId} to be ${status}`,
  );
  const row = (await listDeliveries(home)).find((r) => r.deliveryId === deliveryId);
  if (row?.status !== status) {
    throw new Error(`deliveries list shows ${deliveryId} as ${row?.status}, not ${status}`);
  }
  return row;
}

function agentRuns(deliveryId: string): number {
  return readAppendedIds(agentFile).filter((id) => id === deliveryId).length;
}

function messagesFor(deliveryId: string) {
  return slack.messages.filter((m) => hasWord(m.text, deliveryId));
}

describe('retries', () => {
  it('delivers on attempt N+1 when the target fails N times, without running the agent again', async () => {
    const deliveryId = newDeliveryId();
    slack.failTimes(deliveryId, 2);
    expect((await send('flaky', deliveryId)).status).toBe(202);
    const row = await waitForStatus(deliveryId, 'delivered');
    expect(row.attempts).toBe(3);
    expect(messagesFor(deliveryId).map((m) => m.outcome)).toEqual([
      'failed',
      'failed',
      'acknowledged',
    ]);
    // The answer was journaled after the first run: retries only redo the target step.
    expect(agentRuns(deliveryId)).toBe(1);

    const shown = await showDelivery(home, deliveryId);
    expect(shown.attemptLog).toHaveLength(3);
    expect(shown.attemptLog.map((a) => a.error === null)).toEqual([false, false, true]);
    expect(shown.attemptLog[0]?.error).toMatch(/messenger_c \(Slack\).*HTTP 500/);
    expect(shown.answer).toBe(`answer for ${deliveryId}`);
    // Each attempt has its start and end, one after the other.
    for (const attempt of shown.attemptLog) {
      expect(attempt.finishedAt).not.toBeNull();
      expect(Date.parse(attempt.finishedAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(attempt.startedAt),
      );
    }
  });

  it('marks a delivery failed after the route’s max_attempts, keeping its last error', async () => {
    const deliveryId = newDeliveryId();
    slack.failAlways(deliveryId);
    expect((await send('doomed', deliveryId)).status).toBe(202);
    const row = await waitForStatus(deliveryId, 'failed');
    expect(row).toMatchObject({ attempts: 3, maxAttempts: 3 });
    expect(row.lastError).toMatch(/Slack answered HTTP 500/);
    expect(messagesFor(deliveryId).map((m) => m.outcome)).toEqual(['failed', 'failed', 'failed']);

    const failed = await listDeliveries(home, '--status', 'failed');
    expect(failed.map((r) => r.deliveryId)).toContain(deliveryId);
    expect(failed.every((r) => r.status === 'failed')).toBe(true);
  });
});

describe('redelivery', () => {
  it('accepts and runs the same delivery id again once its delivery failed for good', async () => {
    const deliveryId = newDeliveryId();
    slack.failAlways(deliveryId);
    await send('doomed', deliveryId);
    await waitForStatus(deliveryId, 'failed');

    // The forge's "Redeliver" button sends the same delivery id.
    slack.stopFailing(deliveryId);
    const again = await send('doomed', deliveryId);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ status: 'accepted', delivery_id: deliveryId });
    await waitForStatus(deliveryId, 'delivered');
    expect(slack.acknowledged(deliveryId)).toBe(1);

    const rows = (await listDeliveries(home)).filter((r) => r.deliveryId === deliveryId);
    expect(rows.map((r) => r.status).sort()).toEqual(['delivered', 'failed']);
    // Now delivered, the id is de-duplicated again.
    const third = await send('doomed', deliveryId);
    expect(third.status).toBe(200);
    expect(third.body).toEqual({ status: 'duplicate', delivery_id: deliveryId });
  });

  it('answers duplicate for a delivered delivery id', async () => {
    const deliveryId = newDeliveryId();
    await send('flaky', deliveryId);
    await waitForStatus(deliveryId, 'delivered');
    const again = await send('flaky', deliveryId);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status: 'duplicate', delivery_id: deliveryId });
    expect((await listDeliveries(home)).filter((r) => r.deliveryId === deliveryId)).toHaveLength(1);
  });
});

describe('deliveries replay while the gateway runs', () => {
  it('runs a failed delivery again, agent included, without a restart', async () => {
    const deliveryId = newDeliveryId();
    slack.failAlways(deliveryId);
    await send('doomed', deliveryId);
    const failed = await waitForStatus(deliveryId, 'failed');
    expect(agentRuns(deliveryId)).toBe(1);

    slack.stopFailing(deliveryId);
    const replay = await runCli(['deliveries', 'replay', failed.id, '--home', home]);
    expect(replay.code).toBe(0);
    expect(replay.stderr).toBe('');
    expect(replay.stdout).toBe(
      `delivery ${failed.id} (route doomed, delivery id ${deliveryId}) queued again: status queued\n`,
    );

    const delivered = await waitForStatus(deliveryId, 'delivered');
    expect(delivered.id).toBe(failed.id);
    expect(delivered.attempts).toBe(1);
    expect(slack.acknowledged(deliveryId)).toBe(1);
    // A replay starts over: the agent runs again.
    expect(agentRuns(deliveryId)).toBe(2);
    const shown = await showDelivery(home, failed.id);
    expect(shown.attemptLog).toHaveLength(4);
    expect(shown.lastError).toBeNull();
  });

  it("replays a delivered delivery found by the sender's delivery id, printing JSON", async () => {
    const deliveryId = newDeliveryId();
    await send('flaky', deliveryId);
    await waitForStatus(deliveryId, 'delivered');

    const replay = await runCli(['deliveries', 'replay', deliveryId, '--json', '--home', home]);
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({
      replayed: true,
      deliveryId,
      route: 'flaky',
      status: 'queued',
      attempts: 0,
    });
    await waitFor(
      () => (slack.acknowledged(deliveryId) === 2 ? true : undefined),
      'the replayed answer at the target',
    );
    await waitForStatus(deliveryId, 'delivered');
  });

  it('refuses an unknown id with exit 1 and one line', async () => {
    const replay = await runCli(['deliveries', 'replay', 'no-such-delivery', '--home', home]);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toBe('');
    expect(replay.stderr).toBe('no delivery with id no-such-delivery\n');
  });
});
