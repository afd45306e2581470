/**
 * A real gateway for reconcile's tests: core's receiver and pool on a memory store, the forge and
 * altforge signature schemes, the forge CLI settings, reconcile itself, and a runner that counts
 * how often each delivery ran.
 */
import altforgeAuth from '@webhook-gateway/auth-altforge';
import forgeAuth from '@webhook-gateway/auth-forge';
import {
  definePlugin,
  parseConfig,
  silentLogger,
  type GatewayConfig,
  type DeliveryRecord,
  type GatewayPlugin,
  type ReconcileEvent,
} from '@webhook-gateway/core';
import { MemoryStore, createGateway, type Gateway } from '@webhook-gateway/core/runtime';
import { waitFor } from '@webhook-gateway/core/testing';
import forgeComment from '@webhook-gateway/deliver-forge-comment';
import reconcile from '../index.js';

export interface ReconcileGateway {
  gateway: Gateway;
  store: MemoryStore;
  config: GatewayConfig;
  url: string;
  /** How many times the agent ran each delivery id. */
  runs: Map<string, number>;
  /** Each pass the gateway ran itself. */
  passes: ReconcileEvent[];
  /** Waits until `count` rows are delivered and gives them; fails naming those it saw. */
  delivered(count: number, what: string): Promise<DeliveryRecord[]>;
  stop(): Promise<void>;
}

function countingRunner(runs: Map<string, number>): GatewayPlugin<unknown> {
  return definePlugin({
    name: 'counting-runner',
    setup({ hooks }) {
      hooks.run.for('counting').tapPromise('counting-runner', async (request) => {
        const id = request.delivery.deliveryId;
        runs.set(id, (runs.get(id) ?? 0) + 1);
        return { answer: `ran ${id}` };
      });
    },
  });
}

/** Parses a config with every plugin these tests load. */
function reconcileConfig(raw: Record<string, unknown>): GatewayConfig {
  return parseConfig(raw, {}, [forgeComment, reconcile, forgeAuth, altforgeAuth]);
}

/**
 * Starts a gateway on 127.0.0.1 with `routes` (the test fills in hook URLs after it knows the
 * port, so the port is chosen first), `platforms` (forge/altforge CLI settings) and
 * `extra` (public_url, reconcile_interval_s).
 */
export async function startReconcileGateway(options: {
  port: number;
  routes: Record<string, Record<string, unknown>>;
  platforms?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  /** Load the reconcile plugin (its periodic pass); off to drive passes by hand. */
  periodic?: boolean;
}): Promise<ReconcileGateway> {
  const config = reconcileConfig({
    agent: { runner: 'counting' },
    platforms: {
      ...options.platforms,
      webhook: {
        extra: {
          host: '127.0.0.1',
          port: options.port,
          retry_backoff_ms: 50,
          ...options.extra,
          routes: options.routes,
        },
      },
    },
  });
  const runs = new Map<string, number>();
  const passes: ReconcileEvent[] = [];
  const store = new MemoryStore();
  const plugins = [forgeAuth, altforgeAuth, forgeComment, countingRunner(runs)];
  if (options.periodic) plugins.push(reconcile);
  const gateway = await createGateway({
    config,
    home: '/tmp/webhook-gateway-reconcile-test-home',
    store,
    log: silentLogger(),
    plugins: plugins.map((plugin) => ({ plugin, options: undefined })),
  });
  gateway.hooks.reconciled.tap('test', (event) => void passes.push(event));
  const { port } = await gateway.start();
  return {
    gateway,
    store,
    config,
    url: `http://127.0.0.1:${port}`,
    runs,
    passes,
    async delivered(count, what) {
      let seen: DeliveryRecord[] = [];
      return waitFor(
        async () => {
          seen = await store.list({ status: 'delivered' });
          return seen.length === count && seen;
        },
        what,
        {
          timeoutMs: 20_000,
          describe: () => `delivered: ${seen.map((r) => r.deliveryId).join(', ') || 'none'}`,
        },
      );
    },
    stop: () => gateway.stop(),
  };
}
