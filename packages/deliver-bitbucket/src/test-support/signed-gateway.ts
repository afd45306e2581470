/**
 * A whole gateway for the targets' end-to-end tests: the Gitea signature scheme, the plugin under
 * test, a runner that answers with a fixed summary and line comments, the journal in memory, and
 * one signed route `reviews`.
 */
import {
  definePlugin,
  parseConfig,
  silentLogger,
  type DeliveryRecord,
  type GatewayPlugin,
  type LineComment,
} from '@webhook-gateway/core';
import { createGateway, MemoryStore, type Gateway } from '@webhook-gateway/core/runtime';
import { waitFor } from '@webhook-gateway/core/testing';

export interface SignedGateway {
  store: MemoryStore;
  /** Every prompt the runner was given, in order. */
  prompts: string[];
  /** POSTs `body` with `headers` to the route; the HTTP status. */
  post(headers: Record<string, string>, body: Buffer): Promise<number>;
  /** The journaled delivery of `deliveryId`, once it is finished. */
  finished(deliveryId: string): Promise<DeliveryRecord>;
  stop(): Promise<void>;
}

/** Starts the gateway with `plugins` (the scheme and the target), the route's keys and platforms. */
export async function startSignedGateway(options: {
  plugins: readonly GatewayPlugin<unknown>[];
  route: Record<string, unknown>;
  platforms: Record<string, unknown>;
  answer: { summary: string; lineComments: LineComment[] };
  /** Attempts per delivery (1 unless set) and, with more, the retries' backoff base. */
  retries?: { maxAttempts: number; backoffMs: number };
}): Promise<SignedGateway> {
  const prompts: string[] = [];
  const runner = definePlugin({
    name: 'test-review-runner',
    setup({ hooks }) {
      hooks.run.for('review').tapPromise('test-review-runner', async ({ prompt }) => {
        prompts.push(prompt);
        return {
          answer: options.answer.summary,
          lineComments: options.answer.lineComments,
        };
      });
    },
  });
  const store = new MemoryStore();
  const config = parseConfig(
    {
      agent: { runner: 'review' },
      platforms: {
        ...options.platforms,
        webhook: {
          extra: {
            host: '127.0.0.1',
            port: 0,
            max_attempts: options.retries?.maxAttempts ?? 1,
            ...(options.retries ? { retry_backoff_ms: options.retries.backoffMs } : {}),
            routes: { reviews: options.route },
          },
        },
      },
    },
    {},
    [...options.plugins],
  );
  const gateway: Gateway = await createGateway({
    config,
    home: '/tmp/webhook-gateway-test-home',
    store,
    log: silentLogger(),
    plugins: [...options.plugins, runner].map((plugin) => ({ plugin, options: undefined })),
  });
  const { port } = await gateway.start();
  return {
    store,
    prompts,
    async post(headers, body) {
      const response = await fetch(`http://127.0.0.1:${port}/webhooks/reviews`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      await response.body?.cancel();
      return response.status;
    },
    finished: (deliveryId) =>
      waitFor(async () => {
        const record = (await store.list({})).find((r) => r.deliveryId === deliveryId);
        return record && record.status !== 'queued' && record.status !== 'running' && record;
      }, `delivery ${deliveryId} to finish`),
    stop: () => gateway.stop(),
  };
}
