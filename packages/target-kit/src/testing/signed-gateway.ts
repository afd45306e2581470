/**
 * A whole gateway for a target's end-to-end tests: the plugins under test (a signature scheme and
 * the target), a runner that answers with a fixed summary and line comments (or with the prompt
 * it got, so a test reads what the template was given), the journal in memory, and one route
 * `reviews` whose keys the test gives.
 */
import {
  definePlugin,
  parseConfig,
  silentLogger,
  type DeliveryRecord,
  type GatewayPlugin,
  type LineComment,
} from '@webhook-gateway/core';
import { createGateway, MemoryStore } from '@webhook-gateway/core/runtime';
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

/**
 * Starts the gateway on 127.0.0.1 with `plugins`, the route's keys and the `platforms` slices;
 * each delivery gets one attempt.
 *
 * @example
 * const gateway = await startSignedGateway({
 *   plugins: [giteaAuth, giteaPlugin],
 *   route: { secret: SECRET, deliver: 'gitea_comment' },
 *   platforms: { gitea: { base_url: fake.url, token: TOKEN } },
 *   answer: { summary: 'Looks fine.', lineComments: [] },
 * });
 */
export async function startSignedGateway(options: {
  plugins: readonly GatewayPlugin<unknown>[];
  route: Record<string, unknown>;
  platforms: Record<string, unknown>;
  answer: { summary: string; lineComments: LineComment[] } | 'the prompt';
  /** Attempts per delivery (1 unless set) and, with more, the retries' backoff base. */
  retries?: { maxAttempts: number; backoffMs: number };
  /** Awaited before the runner answers delivery `deliveryId`: a slow agent, held by the test. */
  hold?: (deliveryId: string) => Promise<void>;
}): Promise<SignedGateway> {
  const { answer } = options;
  const prompts: string[] = [];
  const runner = definePlugin({
    name: 'test-review-runner',
    setup({ hooks }) {
      hooks.run.for('review').tapPromise('test-review-runner', async ({ prompt, delivery }) => {
        prompts.push(prompt);
        await options.hold?.(delivery.deliveryId);
        return answer === 'the prompt'
          ? { answer: prompt }
          : { answer: answer.summary, lineComments: answer.lineComments };
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
  const gateway = await createGateway({
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
