import { describe, expect, it } from 'vitest';
import { parseConfig } from './config/load.js';
import { queueLimits } from './queue.js';

describe('queueLimits', () => {
  const config = parseConfig(
    {
      platforms: {
        webhook: {
          extra: { concurrency: 3, retry_backoff_ms: 50, routes: { a: { concurrency: 1 }, b: {} } },
        },
      },
    },
    {},
  );

  it('reads the concurrency, the route limits and the backoff base', () => {
    expect(queueLimits(config)).toEqual({
      concurrency: 3,
      routeConcurrency: { a: 1, b: undefined },
      retryBackoffMs: 50,
    });
  });

  it('works them out once per config, and anew for a reloaded one', () => {
    expect(queueLimits(config)).toBe(queueLimits(config));
    const reloaded = parseConfig({ platforms: { webhook: { extra: { concurrency: 7 } } } }, {});
    expect(queueLimits(reloaded)).not.toBe(queueLimits(config));
    expect(queueLimits(reloaded).concurrency).toBe(7);
  });
});
