/**
 * A pause on Redis: made once by `webhook-gateway pause` against the shared store, it holds on
 * every worker (each reads it from Redis); the receiver still accepts, and `resume` lets the
 * workers run the queue.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../packages/store-redis/src/index.js';
import { cleanupHomes, makeHome, runCli, waitFor, writeConfig } from '../support/gateway.js';
import {
  journalingAgent,
  pullRequestBody,
  readAgentEvents,
  startRole,
  type RoleProcess,
} from '../support/redis-gateways.js';
import { deleteKeys, findTestRedis, uniquePrefix } from '../support/redis-server.js';
import { newDeliveryId, sendForge } from '../support/requests.js';

const redis = await findTestRedis();
const SECRET = 'pause-redis-secret-0123456789';
const prefix = uniquePrefix();
const processes: RoleProcess[] = [];

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  if (redis) await deleteKeys(redis.url(), prefix);
  await redis?.stop();
  cleanupHomes();
});

/** Whether a process logged `msg` about `route`. */
function logged(process: RoleProcess, msg: string, route: string): boolean {
  return process.logLines().some((line) => line.msg === msg && line.route === route);
}

describe.skipIf(!redis)('pause on Redis', () => {
  it('holds a pause made by the CLI on both workers, then resume runs what waited', async () => {
    if (!redis) return;
    const home = makeHome();
    const agentLog = path.join(home, 'agent.jsonl');
    const url = redis.url({ prefix, busy_delay_ms: 50, sweep_interval_ms: 2_000 });
    const configFile = writeConfig(home, {
      store: { kind: 'redis', url },
      agent: {
        runner: 'command',
        command: journalingAgent(agentLog, { fastMs: 50, slowMs: 50, slowRoute: 'none' }),
        timeout_s: 60,
      },
      platforms: {
        webhook: { extra: { secret: SECRET, concurrency: 2, routes: { reviews: {} } } },
      },
    });
    const receiver = await startRole('receiver', configFile);
    processes.push(receiver);
    const workers = await Promise.all([
      startRole('worker', configFile),
      startRole('worker', configFile),
    ]);
    processes.push(...workers);
    const store = await openRedisStore({ url });
    try {
      const paused = await runCli([
        'pause',
        '--route',
        'reviews',
        '--reason',
        'rotating the model key',
        '--home',
        home,
        '--config',
        configFile,
      ]);
      expect(paused.code).toBe(0);
      expect(await store.pauses()).toEqual([
        {
          route: 'reviews',
          reason: 'rotating the model key',
          since: expect.any(Number) as unknown,
        },
      ]);
      // Each worker reads the pause from Redis on its own.
      for (const worker of workers) {
        await waitFor(
          () => logged(worker, 'route paused', 'reviews'),
          `worker ${worker.pid} to see the pause`,
        );
      }

      const ids = [newDeliveryId(), newDeliveryId(), newDeliveryId(), newDeliveryId()];
      for (const [n, id] of ids.entries()) {
        const sent = await sendForge(receiver.url ?? '', 'reviews', {
          body: pullRequestBody(n + 1),
          secret: SECRET,
          event: 'pull_request',
          deliveryId: id,
        });
        expect(sent.status).toBe(202);
      }
      // Each job was taken by a worker and put back to sleep, unrun.
      await waitFor(async () => {
        const states = await Promise.all(
          ids.map(async (id) => {
            const row = await store.get(id);
            return row ? store.jobs.state(`${row.id}.${row.seq}`) : 'missing';
          }),
        );
        return states.every((state) => state === 'delayed');
      }, 'every paused job asleep');
      const rows = await Promise.all(ids.map((id) => store.get(id)));
      expect(rows.map((row) => row?.status)).toEqual(['queued', 'queued', 'queued', 'queued']);
      expect(readAgentEvents(agentLog)).toEqual([]);

      const resumed = await runCli([
        'resume',
        '--route',
        'reviews',
        '--home',
        home,
        '--config',
        configFile,
      ]);
      expect(resumed.code).toBe(0);
      await waitFor(
        async () => {
          const all = await Promise.all(ids.map((id) => store.get(id)));
          return all.every((row) => row?.status === 'delivered');
        },
        'every review delivered after the resume',
        { timeoutMs: 30_000 },
      );
      for (const worker of workers) {
        await waitFor(
          () => logged(worker, 'route resumed', 'reviews'),
          `worker ${worker.pid} to see the resume`,
        );
      }
    } finally {
      await store.close();
    }
  }, 90_000);
});
