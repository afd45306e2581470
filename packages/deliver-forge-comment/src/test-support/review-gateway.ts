/**
 * A whole gateway for the review context's tests: this plugin, a runner that answers with the
 * prompt it got (so a test reads what the template was given), the journal in memory, and one
 * open route per test.
 */
import {
  definePlugin,
  parseConfig,
  silentLogger,
  type DeliveryRecord,
  type JsonObject,
} from '@webhook-gateway/core';
import { createGateway, MemoryStore, type Gateway } from '@webhook-gateway/core/runtime';
import plugin from '../index.js';

const echoRunner = definePlugin({
  name: 'test-echo-runner',
  setup({ hooks }) {
    hooks.run.for('echo').tapPromise('test-echo-runner', async (request) => ({
      answer: request.prompt,
    }));
  },
});

export interface ReviewGateway {
  store: MemoryStore;
  /** POSTs `payload` as the event, with a new delivery id; the HTTP status. */
  post(event: { header: string; name: string }, payload: JsonObject): Promise<number>;
  /** The newest journaled delivery, once it is finished. */
  finished(): Promise<DeliveryRecord>;
  stop(): Promise<void>;
}

let sent = 0;

/** Starts the gateway with the route `review` (`route`'s keys) and the forge platforms given. */
export async function startReviewGateway(options: {
  home: string;
  route: Record<string, unknown>;
  platforms: Record<string, unknown>;
  review?: Record<string, unknown>;
}): Promise<ReviewGateway> {
  const store = new MemoryStore();
  const config = parseConfig(
    {
      agent: { runner: 'echo' },
      ...(options.review ? { review: options.review } : {}),
      platforms: {
        webhook: {
          extra: {
            host: '127.0.0.1',
            port: 0,
            max_attempts: 1,
            routes: { review: { secret: 'INSECURE_NO_AUTH', ...options.route } },
          },
        },
        ...options.platforms,
      },
    },
    {},
    [plugin],
  );
  const gateway: Gateway = await createGateway({
    config,
    home: options.home,
    store,
    log: silentLogger(),
    plugins: [
      { plugin, options: undefined },
      { plugin: echoRunner, options: undefined },
    ],
  });
  const { port } = await gateway.start();
  const url = `http://127.0.0.1:${port}/webhooks/review`;
  let newest = '';
  return {
    store,
    async post(event, payload) {
      newest = `review-${++sent}`;
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [event.header]: event.name,
          'X-GitHub-Delivery': newest,
        },
        body: JSON.stringify(payload),
      });
      await response.body?.cancel();
      return response.status;
    },
    async finished() {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const record = (await store.list({})).find((r) => r.deliveryId === newest);
        if (record && record.status !== 'queued' && record.status !== 'running') return record;
        if (Date.now() > deadline) throw new Error(`not finished: ${record?.status ?? 'none'}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    stop: () => gateway.stop(),
  };
}
