/**
 * Where each queued review stands, under a slow agent (a `command` agent that waits for a gate
 * file): `deliveries list` gives each queued delivery its place in its route's queue with an
 * estimate from the route's recent run times, and `deliveries show` says why it waits. On the
 * SQLite journal and on Redis.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendingAgent } from '../support/journal-agents.js';
import { listDeliveries, type ListedDelivery } from '../support/journal-read.js';
import { pullRequestBody } from '../support/journal-stream.js';
import {
  cleanupHomes,
  makeHome,
  runCli,
  startGateway,
  waitFor,
  type StartedGateway,
} from '../support/gateway.js';
import { deleteKeys, findTestRedis, uniquePrefix } from '../support/redis-server.js';
import { sendForge } from '../support/requests.js';

const SECRET = 'standings-secret-0123456789';
const redis = await findTestRedis();

afterAll(async () => {
  cleanupHomes();
  await redis?.stop();
});

/** A queued delivery as `deliveries list --json` gives it. */
interface QueuedListed extends ListedDelivery {
  queue: {
    position: number;
    queuedOnRoute: number;
    estimatedStartAt: string | null;
    text: string;
    waitingFor: { kind: string; text: string; until: string | null }[];
  } | null;
}

const stores = [
  { kind: 'sqlite', store: () => ({ kind: 'sqlite' }), available: true },
  {
    kind: 'redis',
    store: (prefix: string) => ({ kind: 'redis', url: redis?.url({ prefix, busy_delay_ms: 50 }) }),
    available: redis !== undefined,
  },
] as const;

describe.each(stores)('queue standings on $kind', ({ kind, store, available }) => {
  it.runIf(available)(
    'lists 1st, 2nd, 3rd with an estimate, and shows route concurrency or the running review of the same pull request',
    async () => {
      const home = makeHome();
      const gate = path.join(home, 'gate');
      const prefix = uniquePrefix();
      const gateway: StartedGateway = await startGateway({
        home,
        config: {
          store: store(prefix),
          agent: appendingAgent(path.join(home, 'runs.txt'), {
            sleepS: 0.2,
            gate: { idPattern: 'gated-*', file: gate },
          }),
          platforms: {
            webhook: {
              extra: {
                secret: SECRET,
                concurrency: 4,
                routes: { serial: { concurrency: 1 }, reviews: {} },
              },
            },
          },
        },
      });
      const send = async (route: string, deliveryId: string, pr: number) => {
        const sent = await sendForge(gateway.url, route, {
          body: pullRequestBody(pr),
          secret: SECRET,
          event: 'pull_request',
          deliveryId,
        });
        expect(sent.status).toBe(202);
      };
      const listed = async () => (await listDeliveries(home)) as QueuedListed[];
      const byId = (rows: QueuedListed[], id: string) => rows.find((row) => row.deliveryId === id);
      try {
        // One quick run gives the route its run time, so the others get an estimate.
        await send('serial', 'warm-1', 1);
        await waitFor(
          async () => byId(await listed(), 'warm-1')?.status === 'delivered' || undefined,
          'the first delivery delivered',
          { timeoutMs: 15_000 },
        );

        for (const [index, id] of ['gated-a', 'gated-b', 'gated-c', 'gated-d'].entries()) {
          await send('serial', id, 10 + index);
        }
        // Two about one pull request on a route without a limit: the second waits for the first.
        await send('reviews', 'gated-pr-1', 42);
        await waitFor(
          async () => byId(await listed(), 'gated-pr-1')?.status === 'running' || undefined,
          'the review of pull request 42 running',
          { timeoutMs: 15_000 },
        );
        await send('reviews', 'gated-pr-2', 42);
        const rows = await waitFor(
          async () => {
            const all = await listed();
            return byId(all, 'gated-a')?.status === 'running' &&
              byId(all, 'gated-pr-2')?.status === 'queued'
              ? all
              : undefined;
          },
          'gated-a running and the others queued',
          { timeoutMs: 15_000 },
        );

        const serial = ['gated-b', 'gated-c', 'gated-d'].map((id) => byId(rows, id));
        expect(serial.map((row) => row?.status)).toEqual(['queued', 'queued', 'queued']);
        expect(serial.map((row) => row?.queue?.position)).toEqual([1, 2, 3]);
        expect(serial.map((row) => row?.queue?.text.split(',')[0])).toEqual(['1st', '2nd', '3rd']);
        for (const row of serial) {
          expect(row?.queue?.queuedOnRoute).toBe(3);
          expect(row?.queue?.estimatedStartAt).not.toBeNull();
          expect(row?.queue?.text).toMatch(/^\d(st|nd|rd), (under a minute|about \d+ min)$/);
          expect(row?.queue?.waitingFor.map((reason) => reason.kind)).toEqual([
            'route_concurrency',
          ]);
        }
        // Estimates grow with the place.
        const starts = serial.map((row) => Date.parse(row?.queue?.estimatedStartAt ?? ''));
        expect(starts[1]).toBeGreaterThan(starts[0] ?? Infinity);
        expect(starts[2]).toBeGreaterThan(starts[1] ?? Infinity);
        expect(byId(rows, 'gated-a')?.queue).toBeNull();

        const running = byId(rows, 'gated-pr-1');
        const behind = byId(rows, 'gated-pr-2');
        expect(behind?.queue).toMatchObject({
          position: 1,
          waitingFor: [
            {
              kind: 'pull_request',
              text: `behind the same pull request's running review (${running?.id})`,
            },
          ],
        });

        // The human table and `deliveries show`.
        const table = await runCli(['deliveries', 'list', '--home', home]);
        expect(table.code).toBe(0);
        const header = table.stdout.split('\n')[0] ?? '';
        expect(header).toMatch(/QUEUE$/);
        expect(table.stdout.split('\n').find((line) => line.includes('gated-c'))).toMatch(
          /2nd, (under a minute|about \d+ min)$/,
        );
        const shown = await runCli(['deliveries', 'show', 'gated-c', '--home', home]);
        expect(shown.code).toBe(0);
        expect(shown.stdout).toMatch(/queue\n {2}2nd, .* \(of 3 queued on route serial\)\n/);
        expect(shown.stdout).toContain(
          "  waits: route concurrency: 1 of the route's attempts running",
        );
        const shownPr = await runCli(['deliveries', 'show', 'gated-pr-2', '--home', home]);
        expect(shownPr.stdout).toContain(
          `  waits: behind the same pull request's running review (${running?.id})`,
        );
      } finally {
        fs.writeFileSync(gate, '');
        await waitFor(
          async () => (await listed()).every((row) => row.status === 'delivered') || undefined,
          'every delivery delivered',
          { timeoutMs: 30_000 },
        );
        await gateway.stop();
        if (kind === 'redis' && redis) await deleteKeys(redis.url(), prefix);
      }
    },
    90_000,
  );
});
