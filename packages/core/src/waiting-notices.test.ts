import { afterEach, describe, expect, it } from 'vitest';
import { liveConfig } from './config/live.js';
import { parseConfig } from './config/load.js';
import { createHooks, type DeliveryWaitingRequest, type GatewayHooks } from './hooks.js';
import { silentLogger } from './logger.js';
import { MemoryStore } from './memory-store.js';
import { createRouteResolver } from './routes.js';
import { sampleDelivery } from './testing/store-samples.js';
import { waitFor } from './testing/wait-for.js';
import { startWaitingNotices, type WaitingNotices } from './waiting-notices.js';

let notices: WaitingNotices | undefined;
afterEach(() => notices?.stop());

const config = parseConfig({
  platforms: {
    webhook: { extra: { routes: { reviews: { concurrency: 1 }, logs: { concurrency: 2 } } } },
  },
});

async function accept(
  store: MemoryStore,
  deliveryId: string,
  number: number,
  route = 'reviews',
): Promise<string> {
  const result = await store.accept(
    sampleDelivery({ deliveryId, route, orderKey: `${route}|octo/repo|${number}` }),
    3_600_000,
  );
  if (!result.accepted) throw new Error('not accepted');
  return result.record.id;
}

/** Hooks whose `reviews` route (concurrency 1) shows its waiting deliveries, as a check would. */
function reviewsShowingHooks(): GatewayHooks {
  const hooks = createHooks();
  hooks.routeShowsWaiting.tap('test', (route) => (route.concurrency === 1 ? true : undefined));
  return hooks;
}

/** Starts the passes every 50 ms over `store`, told to `hooks`. */
function startNotices(store: MemoryStore, hooks: GatewayHooks): void {
  const live = liveConfig(config);
  notices = startWaitingNotices({
    store,
    hooks,
    config: live,
    resolveRoute: createRouteResolver(live, store),
    log: silentLogger(),
    intervalMs: 50,
  });
}

describe('startWaitingNotices', () => {
  it('tells deliveryWaiting each waiting delivery’s place once, and again when it moves up', async () => {
    const store = new MemoryStore();
    const hooks = reviewsShowingHooks();
    const told: DeliveryWaitingRequest[] = [];
    hooks.deliveryWaiting.tapPromise('test', async (request) => {
      told.push(request);
    });
    const running = await accept(store, 'd-running', 1);
    const second = await accept(store, 'd-2', 2);
    const third = await accept(store, 'd-3', 3);
    await store.markRunning(running, Date.now());
    startNotices(store, hooks);
    await waitFor(() => told.length >= 2 || undefined, 'two deliveries told');
    expect(told.map((request) => [request.delivery.id, request.standing.position])).toEqual([
      [second, 1],
      [third, 2],
    ]);
    expect(told[0]?.standing.reasons).toEqual([{ kind: 'route_concurrency', limit: 1 }]);
    expect(told[0]?.routeConfig.concurrency).toBe(1);

    // The running one ends and the second starts: the third is 1st now, and only it is told.
    await store.markDelivered(running, Date.now());
    await store.markRunning(second, Date.now());
    await waitFor(() => told.length >= 3 || undefined, 'the third delivery told again');
    expect(
      told.slice(2).map((request) => [request.delivery.id, request.standing.position]),
    ).toEqual([[third, 1]]);
  });

  it('asks the credentials hook only for a tap that asks, once however many taps do', async () => {
    const store = new MemoryStore();
    const hooks = reviewsShowingHooks();
    const asked: string[] = [];
    hooks.credentials.tapPromise('test', async (_credentials, request) => {
      asked.push(request.delivery.id);
      return { token: `token-of-${request.delivery.deliveryId}` };
    });
    const seen: (string | undefined)[] = [];
    // A route with nothing to show never asks (an App would exchange a token for nothing).
    hooks.deliveryWaiting.tapPromise('shows-nothing', async () => {});
    for (const tap of ['shows-one', 'shows-another']) {
      hooks.deliveryWaiting.tapPromise(tap, async (request) => {
        if (request.delivery.deliveryId === 'd-3') seen.push((await request.credentials())?.token);
      });
    }
    const running = await accept(store, 'd-running', 1);
    const second = await accept(store, 'd-2', 2);
    const third = await accept(store, 'd-3', 3);
    await store.markRunning(running, Date.now());
    startNotices(store, hooks);
    await waitFor(() => seen.length >= 2 || undefined, 'both taps to read the credentials');
    expect(seen).toEqual(['token-of-d-3', 'token-of-d-3']);
    expect(asked).toEqual([third]);
    expect(asked).not.toContain(second);
  });

  it('tells a place again within the first ten only, and a pause or resume whatever the place', async () => {
    const store = new MemoryStore();
    const hooks = reviewsShowingHooks();
    const told: [string, number, boolean][] = [];
    hooks.deliveryWaiting.tapPromise('test', async ({ delivery, standing }) => {
      const paused = standing.reasons.some((reason) => reason.kind === 'paused');
      told.push([delivery.deliveryId, standing.position, paused]);
    });
    const running = await accept(store, 'd-running', 1);
    const queued: string[] = [];
    for (let n = 1; n <= 13; n++) queued.push(await accept(store, `d-${n}`, n + 1));
    await store.markRunning(running, Date.now());
    startNotices(store, hooks);
    // Each is told once, far back or not.
    await waitFor(() => told.length >= 13 || undefined, 'thirteen deliveries told');
    expect(told.map(([id, position]) => [id, position])).toEqual(
      Array.from({ length: 13 }, (_, i) => [`d-${i + 1}`, i + 1]),
    );

    // One starts: every place moves up, but only those now within the first ten are told.
    told.length = 0;
    await store.markDelivered(running, Date.now());
    await store.markRunning(queued[0] ?? '', Date.now());
    await waitFor(() => told.length >= 10 || undefined, 'the first ten told again');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(told.map(([id, position]) => [id, position])).toEqual(
      Array.from({ length: 10 }, (_, i) => [`d-${i + 2}`, i + 1]),
    );

    // A pause changes no place, yet every waiting delivery is told it is paused; a resume again.
    told.length = 0;
    await store.pause(null, 'deploy', Date.now());
    await waitFor(() => told.length >= 12 || undefined, 'the pause told');
    expect(told.every(([, , paused]) => paused)).toBe(true);
    told.length = 0;
    await store.resume(null);
    await waitFor(() => told.length >= 12 || undefined, 'the resume told');
    expect(told.some(([, , paused]) => paused)).toBe(false);
  });

  it('tells only the routes that show, and works out no standings while none queued does', async () => {
    const store = new MemoryStore();
    const hooks = reviewsShowingHooks();
    const told: string[] = [];
    hooks.deliveryWaiting.tapPromise('test', async ({ delivery }) => {
      told.push(delivery.deliveryId);
    });
    let standingsReads = 0;
    const list = store.list.bind(store);
    store.list = (query) => {
      standingsReads += 1;
      return list(query);
    };
    // Three on `logs` waiting behind two running: nothing shows them.
    for (let n = 1; n <= 5; n++) await accept(store, `log-${n}`, n, 'logs');
    const [first, second] = (await store.queued(0, 2)).map((row) => row.id);
    await store.markRunning(first ?? '', Date.now());
    await store.markRunning(second ?? '', Date.now());
    startNotices(store, hooks);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(told).toEqual([]);
    expect(standingsReads).toBe(0);

    // Two on `reviews`, one running: the waiting one is told, the `logs` ones still not.
    const running = await accept(store, 'review-1', 1);
    await accept(store, 'review-2', 2);
    await store.markRunning(running, Date.now());
    await waitFor(() => told.length >= 1 || undefined, 'the waiting review told');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(told).toEqual(['review-2']);
    expect(standingsReads).toBeGreaterThan(0);
  });
});
