import { describe, expect, it } from 'vitest';
import { attemptDelivery } from './attempt.js';
import { parseConfig } from './config/load.js';
import { createHooks } from './hooks.js';
import { MemoryStore } from './memory-store.js';
import { outboundDestination } from './outbound-plan.js';
import { acceptOne, attemptDeps } from './test-support/attempt-deps.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OPS = 'https://ops.example.com/hooks';
const AUDIT = 'https://audit.example.com/hooks';

/** Two subscribers: ops hears `reviews` (every event), audit only `dead` of every route. */
function setup(answers: (string | Error)[]) {
  const config = parseConfig({
    platforms: {
      webhook: {
        extra: {
          host: '127.0.0.1',
          outbound: [
            { url: OPS, secret: SECRET, routes: ['reviews'], include_answer: true },
            { url: AUDIT, secret: SECRET, events: ['dead'] },
          ],
          routes: { reviews: { secret: 's' }, triage: { secret: 's' } },
        },
      },
    },
  });
  const hooks = createHooks();
  hooks.run.for('dry-run').tapPromise('test', async () => {
    const next = answers.shift() ?? 'done';
    if (next instanceof Error) throw next;
    return { answer: next };
  });
  hooks.deliver.for('log').tapPromise('test', async () => undefined);
  const store = new MemoryStore();
  return { store, deps: attemptDeps(store, hooks, config, () => 0) };
}

/** Every waiting message: destination and `data.event`, in order. */
async function outbox(store: MemoryStore): Promise<string[]> {
  const { messages } = await store.claimOutbox(Date.now() + 60_000, 60_000, 100);
  return messages
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((m) => {
      const body = JSON.parse(m.body) as { data: { event: string; route: string } };
      const who = m.destination === outboundDestination(OPS) ? 'ops' : 'audit';
      return `${who} ${body.data.route} ${body.data.event}`;
    });
}

describe("an attempt's status changes and extra.outbound", () => {
  it('writes failed, then delivered, for the subscribers of the route, with the answer', async () => {
    const { store, deps } = setup([new Error('model timed out'), 'LGTM']);
    const id = await acceptOne(store, 'reviews');
    const signal = new AbortController().signal;
    expect((await attemptDelivery(deps, id, signal)).status).toBe('retry');
    expect((await attemptDelivery(deps, id, signal)).status).toBe('delivered');
    const { messages } = await store.claimOutbox(Date.now() + 60_000, 60_000, 100);
    const bodies = messages.map((m) => JSON.parse(m.body) as { data: Record<string, unknown> });
    expect(bodies.map((b) => b.data.event)).toEqual(['failed', 'delivered']);
    expect(bodies[0]?.data).toMatchObject({ reason: 'model timed out', attempt: 1 });
    expect(bodies[1]?.data).toMatchObject({ status: 'delivered', attempt: 2, answer: 'LGTM' });
  });

  it('writes silent for an answer of [SILENT], and dead for every subscriber of dead', async () => {
    const { store, deps } = setup(['[SILENT]']);
    const signal = new AbortController().signal;
    const silent = await acceptOne(store, 'reviews');
    expect((await attemptDelivery(deps, silent, signal)).status).toBe('silent');
    expect(await outbox(store)).toEqual(['ops reviews silent']);

    const { store: other, deps: failing } = setup(Array.from({ length: 6 }, () => new Error('no')));
    const dead = await acceptOne(other, 'reviews');
    for (let i = 0; i < 3; i++) await attemptDelivery(failing, dead, signal);
    expect((await other.get(dead))?.status).toBe('failed');
    expect(await outbox(other)).toEqual([
      'ops reviews failed',
      'ops reviews failed',
      'ops reviews dead',
      'audit reviews dead',
    ]);
    const triage = await acceptOne(other, 'triage');
    for (let i = 0; i < 3; i++) await attemptDelivery(failing, triage, signal);
    // triage is not ops's route; audit hears dead of every route.
    expect(await outbox(other)).toEqual(['audit triage dead']);
  });
});
