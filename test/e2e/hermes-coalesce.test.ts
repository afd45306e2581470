/**
 * Coalescing bursts per key, translated from Hermes Agent's coalescer (its `coalesce` route block
 * and tests): only the newest delivery of a burst runs, after a quiet window, never later than
 * `max_wait_s` from the first; `{_gateway.coalesced}` says how many it replaced. Here the journal
 * holds the burst, so it survives a restart and holds across workers on Redis.
 */
import path from 'node:path';
import type { DeliveryRecord } from '@webhook-gateway/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../packages/store-redis/src/index.js';
import {
  cleanupHomes,
  makeHome,
  runCli,
  startGateway,
  waitFor,
  writeConfig,
  type StartedGateway,
} from '../support/gateway.js';
import { readJournal } from '../support/journal-read.js';
import { readAgentRecords, recordingAgent } from '../support/records.js';
import { startRecordingGateway, webhookHome } from '../support/recording-gateway.js';
import { startRole } from '../support/redis-gateways.js';
import { deleteKeys, findTestRedis, uniquePrefix } from '../support/redis-server.js';
import { newDeliveryId, post } from '../support/requests.js';

const PROMPT = 'PR #{number} head {pull_request.head.sha}: coalesced={_gateway.coalesced}';

function coalescingRoute(coalesce: Record<string, unknown>) {
  return { secret: 'INSECURE_NO_AUTH', prompt: PROMPT, coalesce };
}

function pullRequest(number: number, sha: string): string {
  return JSON.stringify({
    action: 'synchronize',
    number,
    pull_request: { number, head: { sha } },
    repository: { full_name: 'octo/repo' },
  });
}

async function send(url: string, route: string, body: string): Promise<string> {
  const deliveryId = newDeliveryId();
  const sent = await post(`${url}/webhooks/${route}`, body, {
    'Content-Type': 'application/json',
    'X-GitHub-Event': 'pull_request',
    'X-GitHub-Delivery': deliveryId,
  });
  expect(sent.status).toBe(202);
  return deliveryId;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ten pushes to one pull request within 5 s, the last one's head `sha-9`. */
async function burstOfTen(url: string, route: string, number: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    ids.push(await send(url, route, pullRequest(number, `sha-${i}`)));
    if (i < 9) await sleep(450);
  }
  return ids;
}

/** The rows of these delivery ids once none is queued or running any more. */
async function settled(
  read: () => Promise<DeliveryRecord[]>,
  ids: readonly string[],
): Promise<DeliveryRecord[]> {
  return waitFor(
    async () => {
      const rows = (await read()).filter((row) => ids.includes(row.deliveryId));
      const open = rows.some((row) => row.status === 'queued' || row.status === 'running');
      return rows.length === ids.length && !open ? rows : undefined;
    },
    'the burst to settle',
    { timeoutMs: 60_000 },
  );
}

afterAll(() => cleanupHomes());

describe('coalescing on the embedded journal', { timeout: 180_000 }, () => {
  let gateway: StartedGateway;
  let agentLog: string;

  afterAll(async () => {
    await gateway?.stop();
  });

  it('a burst of 10 deliveries in 5 s runs the agent once, told it replaced 9', async () => {
    const recording = await startRecordingGateway({
      routes: {
        burst: coalescingRoute({
          key: '{repository.full_name}#{number}',
          window_s: 3,
          max_wait_s: 60,
        }),
        capped: coalescingRoute({
          key: 'pull_request.number',
          window_seconds: 2,
          max_wait_seconds: 2,
        }),
        other: coalescingRoute({ key: '{issue.number}', window_s: 30 }),
      },
    });
    // The restart below starts the plain gateway again in this home, with this agent log.
    gateway = recording;
    agentLog = recording.agentLog;
    const ids = await burstOfTen(gateway.url, 'burst', 1);
    const rows = await settled(() => readJournal(gateway.home), ids);
    const runs = readAgentRecords(agentLog).filter((record) => ids.includes(record.deliveryId));
    expect(runs.map((run) => run.prompt)).toEqual(['PR #1 head sha-9: coalesced=9']);
    const last = rows.find((row) => row.deliveryId === ids[9]);
    expect(last).toMatchObject({ status: 'delivered', coalesced: 9 });
    const superseded = rows.filter((row) => row.status === 'superseded');
    expect(superseded).toHaveLength(9);
    // Each newer delivery superseded the one before it, never a running attempt.
    for (const row of superseded) expect(row.startedAt).toBeNull();
  });

  it('never waits past max_wait_s from the first delivery of the burst', async () => {
    const ids = await burstOfTen(gateway.url, 'capped', 2);
    const rows = await settled(() => readJournal(gateway.home), ids);
    for (const row of rows) {
      if (row.burstStartedAt === undefined) continue;
      expect(row.nextAttemptAt - row.burstStartedAt).toBeLessThanOrEqual(2_000);
    }
    // A 4 s burst with a 2 s cap cannot end as one run.
    const delivered = rows.filter((row) => row.status === 'delivered');
    expect(delivered.length).toBeGreaterThanOrEqual(2);
    const replaced = delivered.reduce((sum, row) => sum + (row.coalesced ?? 0), 0);
    expect(replaced + delivered.length).toBe(10);
  });

  it('a delivery whose key names a missing field runs on its own, without waiting', async () => {
    const id = await send(gateway.url, 'other', pullRequest(3, 'sha-x'));
    const [row] = await settled(() => readJournal(gateway.home), [id]);
    expect(row).toMatchObject({ status: 'delivered' });
    expect(row?.nextAttemptAt).toBe(row?.receivedAt);
    expect(row?.coalesced).toBeUndefined();
  });

  it('a burst holds across a restart', async () => {
    const ids = [
      await send(gateway.url, 'burst', pullRequest(4, 'sha-a')),
      await send(gateway.url, 'burst', pullRequest(4, 'sha-b')),
      await send(gateway.url, 'burst', pullRequest(4, 'sha-c')),
    ];
    expect(await gateway.stop()).toBe(0);
    gateway = await startGateway({ home: gateway.home });
    await settled(() => readJournal(gateway.home), ids);
    const runs = readAgentRecords(agentLog).filter((record) => ids.includes(record.deliveryId));
    expect(runs.map((run) => run.prompt)).toEqual(['PR #4 head sha-c: coalesced=2']);
  });
});

describe('coalescing on Redis, across workers', { timeout: 180_000 }, () => {
  it('a burst through two receivers runs once on one of two workers', async () => {
    const redis = await findTestRedis();
    if (!redis) return;
    const prefix = uniquePrefix();
    const home = makeHome();
    const agentLog = path.join(home, 'agent.jsonl');
    const url = redis.url({ prefix });
    const configFile = writeConfig(home, {
      store: { kind: 'redis', url },
      agent: recordingAgent(agentLog),
      platforms: {
        webhook: {
          extra: {
            routes: {
              burst: coalescingRoute({ key: '{repository.full_name}#{number}', window_s: 3 }),
            },
          },
        },
      },
    });
    const processes = await Promise.all([
      startRole('receiver', configFile, { timeoutMs: 60_000 }),
      startRole('receiver', configFile, { timeoutMs: 60_000 }),
      startRole('worker', configFile, { timeoutMs: 60_000 }),
      startRole('worker', configFile, { timeoutMs: 60_000 }),
    ]);
    const store = await openRedisStore({ url });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const receiver = processes[i % 2]?.url ?? '';
        ids.push(await send(receiver, 'burst', pullRequest(5, `sha-${i}`)));
        if (i < 9) await sleep(450);
      }
      const rows = await settled(() => store.list({ limit: 1000 }), ids);
      const runs = readAgentRecords(agentLog).filter((record) => ids.includes(record.deliveryId));
      expect(runs.map((run) => run.prompt)).toEqual(['PR #5 head sha-9: coalesced=9']);
      expect(rows.filter((row) => row.status === 'superseded')).toHaveLength(9);
    } finally {
      await Promise.all(processes.map((p) => p.stop()));
      await store.close();
      await deleteKeys(redis.url(), prefix);
      await redis.stop();
    }
  });
});

describe('coalesce refused at start', { timeout: 180_000 }, () => {
  it('names coalesce without a key, and max_wait_s below window_s', async () => {
    const home = webhookHome({
      routes: {
        keyless: coalescingRoute({ window_s: 10 }),
        short: coalescingRoute({ key: '{number}', window_s: 30, max_wait_s: 10 }),
        hermes: coalescingRoute({ key: '{number}', window_seconds: 30, max_wait_seconds: 5 }),
      },
    });
    const result = await runCli(['config', 'validate', '--home', home], { timeoutMs: 90_000 });
    expect(result.code).not.toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toContain('platforms.webhook.extra.routes.keyless.coalesce.key');
    expect(output).toContain('platforms.webhook.extra.routes.short.coalesce.max_wait_s');
    expect(output).toContain('platforms.webhook.extra.routes.hermes.coalesce.max_wait_seconds');
    expect(output).toContain('is below window_s');
  });
});
