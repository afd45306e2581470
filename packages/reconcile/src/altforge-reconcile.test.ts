/** Reconcile against the altforge through a fake `glab` that speaks GitLab's hook-events API. */
import { afterEach, describe, expect, it } from 'vitest';
import { runReconcilePass } from './reconcile-pass.js';
import { createFakeGlab, type FakeGlab } from './test-support/fake-glab.js';
import { freePort } from './test-support/free-port.js';
import { startReconcileGateway, type ReconcileGateway } from './test-support/gateway.js';
import { settingsIn, type GatewayConfig } from '@webhook-gateway/core';
import forgeCommentPlugin from '@webhook-gateway/deliver-forge-comment';

const forgesOf = (config: GatewayConfig) => settingsIn(forgeCommentPlugin, config);

const SECRET = 'altforge-hook-token-for-tests';
const PROJECT = 'group/app';

let glab: FakeGlab | undefined;
let gateway: ReconcileGateway | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  glab?.cleanup();
  glab = undefined;
});

function mergeRequest(iid: number): object {
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    project: { path_with_namespace: PROJECT },
    object_attributes: { iid, action: 'open', title: `MR ${iid}` },
  };
}

async function setUp(token?: string): Promise<{ fake: FakeGlab; g: ReconcileGateway }> {
  const fake = createFakeGlab();
  glab = fake;
  const port = await freePort();
  fake.addHook(PROJECT, 7, { url: `http://127.0.0.1:${port}/webhooks/merges`, secret: SECRET });
  gateway = await startReconcileGateway({
    port,
    routes: { merges: { secret: SECRET, reconcile: { project: PROJECT, hook_id: 7 } } },
    platforms: { altforge: { cli: fake.path, token: token ?? fake.token } },
  });
  return { fake, g: gateway };
}

describe('reconcile with the altforge through glab', () => {
  it('resends exactly the missing failed events, each runs once, and a second pass resends nothing', async () => {
    const { fake, g } = await setUp();
    fake.setPageSize(2);
    await fake.deliver(PROJECT, 7, { uuid: 'mr-reached-1', payload: mergeRequest(1) });
    await fake.deliver(PROJECT, 7, {
      uuid: 'mr-missed-1',
      payload: mergeRequest(2),
      failedWith: 'internal error',
    });
    await fake.deliver(PROJECT, 7, { uuid: 'mr-reached-2', payload: mergeRequest(3) });
    await fake.deliver(PROJECT, 7, {
      uuid: 'mr-missed-2',
      payload: mergeRequest(4),
      failedWith: '502',
    });
    await fake.deliver(PROJECT, 7, {
      uuid: 'mr-missed-3',
      payload: mergeRequest(5),
      failedWith: '503',
    });
    await g.delivered(2, 'the reached ones to run');

    const first = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(first.routes[0]?.error).toBeUndefined();
    expect(first.routes[0]).toMatchObject({
      route: 'merges',
      listed: 5,
      journaled: 2,
      redelivered: 3,
      failed: 0,
      redeliveredGuids: ['mr-missed-1', 'mr-missed-2', 'mr-missed-3'],
    });
    const delivered = await g.delivered(5, 'the resent ones to run');
    expect(delivered.map((r) => r.deliveryId).sort()).toEqual([
      'mr-missed-1',
      'mr-missed-2',
      'mr-missed-3',
      'mr-reached-1',
      'mr-reached-2',
    ]);
    for (const id of ['mr-missed-1', 'mr-missed-2', 'mr-missed-3']) expect(g.runs.get(id)).toBe(1);

    const second = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { sinceMs: Date.now() - 3_600_000 },
    });
    expect(second.routes[0]).toMatchObject({ listed: 5, journaled: 5, redelivered: 0, failed: 0 });
    expect(fake.resends()).toHaveLength(3);
  });

  it('a token the altforge refuses is reported as not authenticated, naming platforms.altforge.token', async () => {
    const { g } = await setUp('glpat-wrong');
    const pass = await runReconcilePass({
      config: g.config,
      forges: forgesOf(g.config),
      store: g.store,
      window: { fromCursor: true },
    });
    expect(pass.routes[0]?.error).toMatch(
      /is not authenticated \(HTTP 401: 401 Unauthorized\); run ".*glab auth login" or set platforms\.altforge\.token/,
    );
  });
});
