/**
 * What the forges' command-route tests (`commands*.test.ts`) share: a gateway whose one route
 * answers `/review` and `@review-bot` comments, and the stopping of what each test started.
 */
import type { GatewayPlugin } from '@webhook-gateway/core';
import { startSignedGateway, type SignedGateway } from './signed-gateway.js';

/**
 * Starts a signed gateway whose route runs on `/review` or `@review-bot` with the command's words
 * as the prompt (`Asked: …`), answered `Looked at it.`; `route` gives the forge's own keys.
 */
export function startCommandGateway(options: {
  plugins: readonly GatewayPlugin<unknown>[];
  /** The route's secret, events and target, and any key more (`command_permission`). */
  route: { secret: string; events: string[]; deliver: string } & Record<string, unknown>;
  platforms: Record<string, unknown>;
  retries?: { maxAttempts: number; backoffMs: number };
}): Promise<SignedGateway> {
  return startSignedGateway({
    plugins: options.plugins,
    route: {
      commands: ['/review', '@review-bot'],
      prompt: 'Asked: {_gateway.command.args}',
      ...options.route,
    },
    platforms: options.platforms,
    answer: { summary: 'Looked at it.', lineComments: [] },
    ...(options.retries ? { retries: options.retries } : {}),
  });
}

/** A fake service or a gateway a test started. */
type Stoppable = { stop(): Promise<void> } | { close(): Promise<void> };

/**
 * What a test started, kept to stop after it, the last started first (a gateway before the fake
 * forge it calls): `afterEach(() => started.stopAll())`.
 */
export function stoppedAfterTest() {
  const kept: Stoppable[] = [];
  return {
    /** Keeps `thing` to stop after the test; gives it back. */
    keep<T extends Stoppable>(thing: T): T {
      kept.push(thing);
      return thing;
    },
    async stopAll(): Promise<void> {
      for (let thing = kept.pop(); thing; thing = kept.pop()) {
        await ('stop' in thing ? thing.stop() : thing.close());
      }
    },
  };
}
