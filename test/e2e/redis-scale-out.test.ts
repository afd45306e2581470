/**
 * Scale-out on Redis: two receiver processes and two worker processes sharing one Redis (and one
 * config file), checked for the guarantees of one process: duplicates run once, the rate limit is
 * one limit, a pull request's deliveries run one at a time in order, a worker killed mid-run loses
 * nothing, and the history can be read and replayed.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStore, type RedisStore } from '../../packages/store-redis/src/index.js';
import { cleanupHomes, makeHome, runCli, waitFor, writeConfig } from '../support/gateway.js';
import {
  journalingAgent,
  pullRequestBody,
  readAgentEvents,
  startRole,
  type RoleProcess,
} from '../support/redis-gateways.js';
import { deleteKeys, findTestRedis, uniquePrefix } from '../support/redis-server.js';
import { newDeliveryId, sendForge, type Sent } from '../support/requests.js';

const redis = await findTestRedis();
const SECRET = 'scale-out-secret-0123456789';

const prefix = uniquePrefix();
let agentLog: string;
let configFile: string;
let receivers: RoleProcess[] = [];
let workers: RoleProcess[] = [];
let store: RedisStore;

beforeAll(async () => {
  if (!redis) return;
  const home = makeHome();
  agentLog = path.join(home, 'agent.jsonl');
  const url = redis.url({
    prefix,
    lock_duration_ms: 2_000,
    stalled_interval_ms: 1_000,
    sweep_interval_ms: 2_000,
    busy_delay_ms: 50,
  });
  configFile = writeConfig(home, {
    store: { kind: 'redis', url },
    agent: {
      runner: 'command',
      command: journalingAgent(agentLog, { fastMs: 150, slowMs: 4_000, slowRoute: 'crash' }),
      timeout_s: 60,
    },
    platforms: {
      webhook: {
        extra: {
          secret: SECRET,
          rate_limit: 5,
          concurrency: 2,
          routes: { dups: {}, limited: {}, ordered: {}, crash: {}, history: {} },
        },
      },
    },
  });
  receivers = await Promise.all([
    startRole('receiver', configFile),
    startRole('receiver', configFile),
  ]);
  workers = await Promise.all([startRole('worker', configFile), startRole('worker', configFile)]);
  store = await openRedisStore({ url });
});

afterAll(async () => {
  await Promise.all([...receivers, ...workers].map((p) => p.stop()));
  await store?.close();
  if (redis) await deleteKeys(redis.url(), prefix);
  await redis?.stop();
  cleanupHomes();
});

function receiverUrl(index: number): string {
  const url = receivers[index % receivers.length]?.url;
  if (!url) throw new Error('no receiver is running');
  return url;
}

function send(index: number, route: string, deliveryId: string, body: string): Promise<Sent> {
  return sendForge(receiverUrl(index), route, {
    body,
    secret: SECRET,
    event: 'pull_request',
    deliveryId,
  });
}

async function waitDelivered(deliveryIds: string[], what: string, timeoutMs = 30_000) {
  await waitFor(
    async () => {
      const rows = await Promise.all(deliveryIds.map((id) => store.get(id)));
      return rows.every((row) => row?.status === 'delivered') ? true : undefined;
    },
    what,
    { timeoutMs },
  );
}

describe.skipIf(!redis)('receivers and workers on one Redis', () => {
  it('starts receivers that listen and workers that do not', () => {
    for (const receiver of receivers) expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const worker of workers) {
      expect(worker.stdout()).toContain('[webhook] Worker started — store: redis');
      expect(worker.stdout()).not.toContain('Listening');
    }
  });

  it('runs a delivery id sent to both receivers at once exactly once', async () => {
    const ids = [newDeliveryId(), newDeliveryId()];
    const answers = await Promise.all(
      ids.flatMap((id, n) => [
        send(0, 'dups', id, pullRequestBody(100 + n)),
        send(1, 'dups', id, pullRequestBody(100 + n)),
      ]),
    );
    for (let n = 0; n < ids.length; n++) {
      const pair = answers.slice(2 * n, 2 * n + 2);
      expect(pair.map((a) => a.status).sort()).toEqual([200, 202]);
      expect(pair.find((a) => a.status === 200)?.body).toEqual({
        status: 'duplicate',
        delivery_id: ids[n],
      });
    }
    await waitDelivered(ids, 'both deliveries');
    expect((await store.list({ route: 'dups' })).map((r) => r.deliveryId).sort()).toEqual(
      [...ids].sort(),
    );
    const starts = readAgentEvents(agentLog).filter(
      (e) => e.event === 'start' && e.route === 'dups',
    );
    expect(starts.map((e) => e.deliveryId).sort()).toEqual([...ids].sort());
    // The agent ran in a worker, never in a receiver.
    const workerPids = workers.map((w) => w.pid);
    for (const start of starts) expect(workerPids).toContain(start.gatewayPid);
  });

  it('holds the rate limit across both receivers', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        send(n, 'limited', newDeliveryId(), pullRequestBody(200 + n)),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    for (const limited of answers.filter((a) => a.status === 429)) {
      expect(limited.body).toEqual({ error: 'Rate limit exceeded' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('runs the deliveries of one pull request one at a time, in order, across workers', async () => {
    const sent: { id: string; pr: number }[] = [];
    // Three about PR 1, two about PR 2, alternating receivers, each answered before the next.
    for (const [n, pr] of [1, 2, 1, 2, 1].entries()) {
      const id = newDeliveryId();
      expect((await send(n, 'ordered', id, pullRequestBody(pr))).status).toBe(202);
      sent.push({ id, pr });
    }
    await waitDelivered(
      sent.map((s) => s.id),
      'the ordered deliveries',
    );
    const events = readAgentEvents(agentLog).filter((e) => e.route === 'ordered');
    for (const pr of [1, 2]) {
      const ids = sent.filter((s) => s.pr === pr).map((s) => s.id);
      const lines = events
        .filter((e) => ids.includes(e.deliveryId))
        .map((e) => `${e.event} ${e.deliveryId}`);
      expect(lines).toEqual(ids.flatMap((id) => [`start ${id}`, `end ${id}`]));
    }
  });

  it('finishes the job of a worker killed mid-run on the other worker, losing nothing', async () => {
    const ids = [newDeliveryId(), newDeliveryId(), newDeliveryId()];
    for (const [n, id] of ids.entries()) {
      expect((await send(n, 'crash', id, pullRequestBody(300 + n))).status).toBe(202);
    }
    const started = await waitFor(
      () => readAgentEvents(agentLog).find((e) => e.route === 'crash' && e.event === 'start'),
      'a slow run to start',
    );
    const victim = workers.find((w) => w.pid === started.gatewayPid);
    const survivor = workers.find((w) => w.pid !== started.gatewayPid);
    if (!victim || !survivor) throw new Error('the run started outside the two workers');
    await victim.kill();

    await waitDelivered(ids, 'every delivery after the kill', 60_000);
    const interrupted = await store.get(started.deliveryId);
    expect(interrupted?.attempts).toBeGreaterThanOrEqual(2);
    const ends = readAgentEvents(agentLog).filter(
      (e) => e.event === 'end' && e.gatewayPid === survivor.pid,
    );
    expect(ends.map((e) => e.deliveryId)).toContain(started.deliveryId);
    expect(survivor.logLines().some((line) => line.msg === 'delivered')).toBe(true);
  }, 90_000);

  it('lists, shows and replays through the CLI; a worker picks the replay up', async () => {
    const id = newDeliveryId();
    expect((await send(0, 'history', id, pullRequestBody(400))).status).toBe(202);
    await waitDelivered([id], 'the delivery');
    const cli = (...args: string[]) =>
      runCli(['deliveries', ...args, '--home', makeHome(), '--config', configFile, '--json']);

    const list = await cli('list', '--route', 'history');
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout) as { deliveryId: string; status: string }[];
    expect(rows.map((r) => [r.deliveryId, r.status])).toEqual([[id, 'delivered']]);

    const show = await cli('show', id);
    expect(show.code).toBe(0);
    const detail = JSON.parse(show.stdout) as Record<string, unknown>;
    expect(detail).toMatchObject({ deliveryId: id, status: 'delivered', attempts: 1 });
    expect(detail.answer).toBe(`answer for ${id}`);
    expect(String(detail.prompt)).toContain('"number": 400');

    const replay = await cli('replay', id);
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ replayed: true, status: 'queued' });
    await waitFor(
      () =>
        readAgentEvents(agentLog).filter((e) => e.deliveryId === id && e.event === 'end').length ===
        2
          ? true
          : undefined,
      'the replayed run',
    );
    await waitDelivered([id], 'the replayed delivery');
    const again = JSON.parse((await cli('show', id)).stdout) as Record<string, unknown>;
    expect(again).toMatchObject({ status: 'delivered', attempts: 1 });
  });
});
