import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, T0, newDelivery, useTestStores, waitForLine } from './test-support/stores.js';

const { dir, open } = useTestStores();
const holdWriteLock = fileURLToPath(new URL('./test-support/hold-write-lock.mjs', import.meta.url));

describe('two stores on one file (the gateway and the CLI)', () => {
  it('a second store sees the deliveries the first one accepted', async () => {
    const gateway = open();
    const cli = open(gateway.path);
    const result = await gateway.accept(newDelivery({ deliveryId: 'd-1' }), HOUR_MS);
    expect(result.accepted).toBe(true);
    expect((await cli.get('d-1'))?.status).toBe('queued');
    expect(await cli.list({})).toHaveLength(1);
  });

  it("a replay made by the second store is picked up by the first one's poll", async () => {
    const gateway = open();
    const cli = open(gateway.path);
    const first = await gateway.accept(newDelivery({ deliveryId: 'd-1' }), HOUR_MS);
    const second = await gateway.accept(newDelivery({ deliveryId: 'd-2' }), HOUR_MS);
    if (!first.accepted || !second.accepted) throw new Error('both should be accepted');
    await gateway.markRunning(first.record.id, T0 + 1);
    await gateway.markDelivered(first.record.id, T0 + 2);
    const cursor = second.record.seq; // the gateway has seen everything so far

    await cli.replay('d-1', T0 + 3);
    const polled = await gateway.queued(cursor, 1000);
    expect(polled.map((r) => r.deliveryId)).toEqual(['d-1']);
  });

  it('keeps de-duplicating across a restart', async () => {
    const before = open();
    await before.accept(newDelivery({ deliveryId: 'd-1' }), HOUR_MS);
    await before.close();
    const after = open(before.path);
    const again = await after.accept(newDelivery({ deliveryId: 'd-1' }), HOUR_MS);
    expect(again).toEqual({ accepted: false, reason: 'duplicate' });
  });

  it("waits for another process's write transaction instead of failing", async () => {
    const store = open(`${dir()}/state.db`);
    const child = spawn(process.execPath, [holdWriteLock, store.path, '400'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await waitForLine(child.stdout, (line) => line === 'locked');
    const started = Date.now();
    const result = await store.accept(newDelivery(), HOUR_MS);
    expect(result.accepted).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(await exited).toBe(0);
  });
});
