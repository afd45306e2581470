/**
 * A whole gateway for integration tests: core's receiver and worker pool, a memory store, the
 * plugin under test and a runner plugin that always gives the same answer.
 */
import {
  definePlugin,
  parseConfig,
  silentLogger,
  type DeliveryRecord,
  type GatewayPlugin,
  type LineComment,
} from '../index.js';
import { MemoryStore, createGateway, type Gateway } from '../runtime.js';
import { waitFor } from './wait-for.js';

/**
 * The runner `fixed` (the harness's `agent.runner`): it answers every prompt with `answer` (the
 * real runners live in another package).
 */
function fixedAnswerRunner(
  answer: string,
  lineComments: readonly LineComment[],
): GatewayPlugin<unknown> {
  return definePlugin({
    name: 'fixed-answer-runner',
    setup({ hooks }) {
      hooks.run.for('fixed').tapPromise('fixed-answer-runner', async () => ({
        answer,
        ...(lineComments.length > 0 ? { lineComments: [...lineComments] } : {}),
      }));
    },
  });
}

export interface RunningGateway {
  gateway: Gateway;
  store: MemoryStore;
  url: string;
}

/**
 * Starts a gateway on 127.0.0.1, a free port, with one `INSECURE_NO_AUTH` route `review`.
 *
 * @example
 * const { gateway, store, url } = await startGateway({
 *   plugin: pagerPlugin,
 *   options: { retries: 1 }, // what `plugins: [{ name, options }]` would give it
 *   platforms: { pager: { url: pagerUrl } },
 *   route: { deliver: 'pager' },
 * });
 */
export async function startGateway(options: {
  plugin: GatewayPlugin<unknown>;
  /** The plugin's options, validated by its `options` schema as config's would be. */
  options?: unknown;
  /** What the runner answers to every prompt; default `"the answer"`. */
  answer?: string;
  /** The line comments the runner leaves next to its answer; default none. */
  lineComments?: readonly LineComment[];
  /** Slices under `platforms:` besides `webhook` (the plugin's settings). */
  platforms?: Record<string, unknown>;
  /** Keys of the route `review` (`deliver: <your target>`, `prompt`, …). */
  route?: Record<string, unknown>;
}): Promise<RunningGateway> {
  const config = parseConfig(
    {
      agent: { runner: 'fixed' },
      platforms: {
        ...options.platforms,
        webhook: {
          extra: {
            host: '127.0.0.1',
            port: 0,
            retry_backoff_ms: 50,
            routes: { review: { secret: 'INSECURE_NO_AUTH', ...options.route } },
          },
        },
      },
    },
    {},
    [options.plugin],
  );
  const store = new MemoryStore();
  const gateway = await createGateway({
    config,
    home: '/tmp/webhook-gateway-test-home',
    store,
    log: silentLogger(),
    plugins: [
      { plugin: options.plugin, options: options.options },
      {
        plugin: fixedAnswerRunner(options.answer ?? 'the answer', options.lineComments ?? []),
        options: undefined,
      },
    ],
  });
  const { port } = await gateway.start();
  return { gateway, store, url: `http://127.0.0.1:${port}` };
}

/** Posts a forge-style pull_request delivery to the `review` route. */
export async function postPullRequest(
  url: string,
  payload: Record<string, unknown>,
): Promise<Response> {
  return fetch(`${url}/webhooks/review`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forge-event': 'pull_request',
      'x-forge-delivery': `test-${Date.now()}-${Math.random()}`,
    },
    body: JSON.stringify(payload),
  });
}

/** Polls the journal until the only delivery is delivered or failed. */
export async function waitForDelivery(
  store: MemoryStore,
  timeoutMs = 10_000,
): Promise<DeliveryRecord> {
  let status = 'none';
  return waitFor(
    async () => {
      const [record] = await store.list({});
      status = record?.status ?? 'none';
      return (status === 'delivered' || status === 'failed') && record;
    },
    'the delivery to finish',
    { timeoutMs, describe: () => `status ${status}` },
  );
}
