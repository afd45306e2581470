/**
 * A pull request pushed to while its review runs, through a whole gateway on the given store: the
 * scenario of a route's `supersede: true`, for each store's tests (its queue included).
 */
import assert from 'node:assert/strict';
import {
  definePlugin,
  parseConfig,
  silentLogger,
  type DeliveryRecord,
  type GatewayPlugin,
  type Store,
} from '../index.js';
import { createGateway } from '../runtime.js';
import { waitFor } from './wait-for.js';

/** A runner whose runs wait until the test lets them finish; it keeps every prompt it got. */
class GatedRunner {
  readonly prompts: string[] = [];
  private release: (() => void) | undefined;
  private gate = new Promise<void>((resolve) => (this.release = resolve));

  readonly plugin: GatewayPlugin<unknown> = definePlugin({
    name: 'gated-runner',
    provides: { runners: ['gated'] },
    setup: ({ hooks }) => {
      hooks.run.for('gated').tapPromise('gated-runner', async ({ prompt }) => {
        this.prompts.push(prompt);
        await this.gate;
        return { answer: `reviewed: ${prompt}` };
      });
    },
  });

  /** Lets every run waiting now, and every later one, finish. */
  open(): void {
    this.release?.();
  }
}

/** The forge's payload of `action` on pull request 7 of octo/repo at head `sha`. */
function pullRequest(action: string, sha: string): Record<string, unknown> {
  return {
    action,
    number: 7,
    pull_request: { number: 7, head: { sha } },
    repository: { full_name: 'octo/repo' },
  };
}

export interface SupersedeOutcome {
  /** The prompts the agent was run with, in order. */
  prompts: string[];
  /** Every journal row, oldest first. */
  rows: DeliveryRecord[];
}

/**
 * `opened`, then three `synchronize` pushes while the first review still runs, on a route with
 * `supersede` as given; resolves once every row is finished. The prompt names
 * `{pull_request.head.sha}` and `{_gateway.previous_head_sha}`.
 */
export async function runSupersedeScenario(
  store: Store,
  options: { supersede: boolean },
): Promise<SupersedeOutcome> {
  const runner = new GatedRunner();
  const config = parseConfig(
    {
      agent: { runner: 'gated' },
      platforms: {
        webhook: {
          extra: {
            host: '127.0.0.1',
            port: 0,
            concurrency: 4,
            routes: {
              review: {
                secret: 'INSECURE_NO_AUTH',
                supersede: options.supersede,
                prompt: 'head {pull_request.head.sha} since [{_gateway.previous_head_sha}]',
              },
            },
          },
        },
      },
    },
    {},
    [runner.plugin],
  );
  const gateway = await createGateway({
    config,
    home: '/tmp/webhook-gateway-test-home',
    store,
    log: silentLogger(),
    plugins: [{ plugin: runner.plugin, options: undefined }],
  });
  const { port } = await gateway.start();
  try {
    let n = 0;
    const post = async (action: string, sha: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/webhooks/review`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forge-event': 'pull_request',
          'x-forge-delivery': `supersede-${++n}-${Date.now()}`,
        },
        body: JSON.stringify(pullRequest(action, sha)),
      });
      assert.equal(response.status, 202, `POST ${action} ${sha}`);
    };
    await post('opened', 'a1');
    await waitFor(() => runner.prompts.length === 1, 'the first run', { timeoutMs: 20_000 });
    for (const sha of ['a2', 'a3', 'a4']) await post('synchronize', sha);
    runner.open();
    const rows = await waitFor(
      async () => {
        const all = await store.list({ limit: 100 });
        const done =
          all.length === 4 && all.every((r) => r.status !== 'queued' && r.status !== 'running');
        return done && all.sort((a, b) => a.seq - b.seq);
      },
      'every row to finish',
      { timeoutMs: 20_000 },
    );
    return { prompts: runner.prompts, rows };
  } finally {
    await gateway.stop();
  }
}
