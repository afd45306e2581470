/**
 * What the journal keeps across a stop: work still queued at a graceful shutdown runs at the next
 * start, de-duplication survives the restart, and rows past `retention_days` are pruned.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { NewDelivery } from '@webhook-gateway/core';
import { openSqliteStore } from '@webhook-gateway/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { appendingAgent, readAppendedIds, type AgentGate } from '../support/journal-agents.js';
import { listDeliveries, readJournal, showDelivery } from '../support/journal-read.js';
import { pullRequestBody } from '../support/journal-stream.js';
import { cleanupHomes, makeHome, startGateway, waitFor } from '../support/gateway.js';
import { newDeliveryId, sendForge } from '../support/requests.js';

const SECRET = 'restart-secret-0123456789';
const DAY_MS = 86_400_000;

afterAll(() => cleanupHomes());

function configFor(
  agentFile: string,
  options: { gate?: AgentGate; retentionDays?: number; shutdownTimeoutS?: number } = {},
): Record<string, unknown> {
  const retention = {
    ...(options.retentionDays === undefined ? {} : { retention_days: options.retentionDays }),
    ...(options.shutdownTimeoutS === undefined
      ? {}
      : { shutdown_timeout_s: options.shutdownTimeoutS }),
  };
  return {
    agent: appendingAgent(agentFile, {
      sleepS: 0.05,
      ...(options.gate ? { gate: options.gate } : {}),
    }),
    platforms: {
      webhook: { extra: { secret: SECRET, concurrency: 1, routes: { r: {} }, ...retention } },
    },
  };
}

describe('graceful shutdown and restart', () => {
  it('keeps queued work in the journal at SIGTERM, runs it at the next start, and still de-duplicates', async () => {
    const home = makeHome();
    const agentFile = path.join(home, 'agent-runs.txt');
    const gateFile = path.join(home, 'gate');
    const ids = [newDeliveryId(), newDeliveryId(), newDeliveryId(), newDeliveryId()];
    // The first run waits for the gate, so it is surely running when SIGTERM arrives.
    const first = await startGateway({
      home,
      config: configFor(agentFile, { gate: { idPattern: ids[0] ?? '', file: gateFile } }),
    });
    try {
      // Different pull requests, so only the concurrency of 1 holds them back.
      for (const [index, deliveryId] of ids.entries()) {
        const sent = await sendForge(first.url, 'r', {
          body: pullRequestBody(index + 1),
          secret: SECRET,
          event: 'pull_request',
          deliveryId,
        });
        expect(sent.status).toBe(202);
      }
      await waitFor(
        async () =>
          (await readJournal(home)).find((r) => r.deliveryId === ids[0])?.status === 'running'
            ? true
            : undefined,
        'the first delivery to be running',
      );
      // SIGTERM: nothing new starts; the running delivery may finish (shutdown_timeout_s).
      const exited = first.stop('SIGTERM');
      await waitFor(
        () => first.logLines().find((line) => String(line.msg).startsWith('stopping')),
        'the gateway to start stopping',
      );
      fs.writeFileSync(gateFile, '');
      expect(await exited).toBe(0);
    } finally {
      fs.writeFileSync(gateFile, '');
      await first.kill();
    }

    const afterStop = await listDeliveries(home);
    const statuses = ids.map((id) => afterStop.find((r) => r.deliveryId === id)?.status);
    expect(statuses).toEqual(['delivered', 'queued', 'queued', 'queued']);
    expect(readAppendedIds(agentFile)).toEqual([ids[0]]);

    const second = await startGateway({ home });
    try {
      await waitFor(
        async () =>
          (await readJournal(home)).every((r) => r.status === 'delivered') ? true : undefined,
        'the queued deliveries to run after the restart',
      );
      // Each ran once, in order of arrival: nothing lost, nothing run twice.
      expect(readAppendedIds(agentFile)).toEqual(ids);

      // The idempotency keys were journaled too: the restart forgot no delivery id.
      for (const deliveryId of [ids[0] ?? '', ids[3] ?? '']) {
        const again = await sendForge(second.url, 'r', {
          body: pullRequestBody(9),
          secret: SECRET,
          event: 'pull_request',
          deliveryId,
        });
        expect(again.status).toBe(200);
        expect(again.body).toEqual({ status: 'duplicate', delivery_id: deliveryId });
      }
    } finally {
      await second.stop();
    }
    expect(await listDeliveries(home)).toHaveLength(4);
  });
});

describe('a run cut short by the shutdown timeout', () => {
  it('is left in the journal and runs again at the next start, its cut attempt recorded', async () => {
    const home = makeHome();
    const agentFile = path.join(home, 'agent-runs.txt');
    const gateFile = path.join(home, 'gate');
    const deliveryId = newDeliveryId();
    const gate = { idPattern: deliveryId, file: gateFile };
    const first = await startGateway({
      home,
      config: configFor(agentFile, { gate, shutdownTimeoutS: 0.2 }),
    });
    try {
      const sent = await sendForge(first.url, 'r', {
        body: pullRequestBody(1),
        secret: SECRET,
        event: 'pull_request',
        deliveryId,
      });
      expect(sent.status).toBe(202);
      await waitFor(
        async () =>
          (await readJournal(home)).find((r) => r.deliveryId === deliveryId)?.status === 'running'
            ? true
            : undefined,
        'the delivery to be running',
      );
      // The agent waits for the gate, longer than shutdown_timeout_s: the stop cuts it.
      expect(await first.stop('SIGTERM')).toBe(0);
    } finally {
      await first.kill();
    }
    const [cut] = await listDeliveries(home);
    expect(cut).toMatchObject({ deliveryId, status: 'running', attempts: 1 });
    expect(readAppendedIds(agentFile)).toEqual([]);

    fs.writeFileSync(gateFile, '');
    const second = await startGateway({ home });
    try {
      await waitFor(
        async () => ((await readJournal(home))[0]?.status === 'delivered' ? true : undefined),
        'the cut delivery to run after the restart',
      );
    } finally {
      await second.stop();
    }
    expect(readAppendedIds(agentFile)).toEqual([deliveryId]);
    const shown = await showDelivery(home, deliveryId);
    expect(shown).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(shown.attemptLog.map((a) => a.error)).toEqual([
      'interrupted: the gateway stopped during this attempt',
      null,
    ]);
  });
});

describe('retention', () => {
  /** A finished or waiting row written with the store's own API, at chosen times. */
  function oldDelivery(deliveryId: string, receivedAt: number): NewDelivery {
    return {
      route: 'r',
      event: 'pull_request',
      action: 'opened',
      deliveryId,
      receivedAt,
      payload: JSON.parse(pullRequestBody(1)) as NewDelivery['payload'],
      headers: { 'x-forge-event': 'pull_request', 'x-forge-delivery': deliveryId },
      orderKey: null,
      maxAttempts: 5,
    };
  }

  it('prunes finished rows older than retention_days at start, never waiting work; expired keys free their ids', async () => {
    const home = makeHome();
    const agentFile = path.join(home, 'agent-runs.txt');
    const now = Date.now();
    const store = openSqliteStore({ path: path.join(home, 'state.db') });
    const rows = {
      deliveredLongAgo: { id: 'old-delivered', finishedAt: now - 10 * DAY_MS, status: 'delivered' },
      failedLongAgo: { id: 'old-failed', finishedAt: now - 8 * DAY_MS, status: 'failed' },
      deliveredRecently: {
        id: 'recent-delivered',
        finishedAt: now - 1 * DAY_MS,
        status: 'delivered',
      },
      queuedLongAgo: { id: 'old-queued', finishedAt: null, status: 'queued' },
    } as const;
    for (const row of Object.values(rows)) {
      const receivedAt = (row.finishedAt ?? now - 30 * DAY_MS) - 1000;
      const result = await store.accept(oldDelivery(row.id, receivedAt), 3_600_000);
      if (!result.accepted) throw new Error(`${row.id} was not accepted`);
      if (row.finishedAt === null) continue;
      await store.markRunning(result.record.id, row.finishedAt - 500);
      if (row.status === 'delivered') await store.markDelivered(result.record.id, row.finishedAt);
      else await store.markFailed(result.record.id, 'target down', row.finishedAt);
    }
    // A delivery received just now: its key is still inside the window.
    await store.accept(oldDelivery('fresh-key', now), 3_600_000);
    await store.close();

    const gateway = await startGateway({
      home,
      config: configFor(agentFile, { retentionDays: 7 }),
    });
    try {
      await waitFor(
        async () =>
          (await readJournal(home)).every((r) => r.status === 'delivered') ? true : undefined,
        'the waiting deliveries to run',
      );
      const kept = (await listDeliveries(home)).map((r) => r.deliveryId).sort();
      // 10 and 8 days old: gone. 1 day old: kept. Queued 30 days ago: kept, and it ran.
      expect(kept).toEqual(['fresh-key', 'old-queued', 'recent-delivered']);
      expect(readAppendedIds(agentFile).sort()).toEqual(['fresh-key', 'old-queued']);

      // Only the key inside its window is live; the others' rows are gone or their keys past.
      const db = new Database(path.join(home, 'state.db'), { readonly: true });
      try {
        const keys = db
          .prepare<[number]>('SELECT delivery_id FROM deliveries WHERE key_expires_at > ?')
          .pluck()
          .all(Date.now());
        expect(keys).toEqual(['fresh-key']);
      } finally {
        db.close();
      }
      // An expired key no longer de-duplicates: the id is accepted as new.
      const again = await sendForge(gateway.url, 'r', {
        body: pullRequestBody(1),
        secret: SECRET,
        event: 'pull_request',
        deliveryId: 'old-delivered',
      });
      expect(again.status).toBe(202);
    } finally {
      await gateway.stop();
    }
  });
});
