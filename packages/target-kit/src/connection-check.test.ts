import { describe, expect, it } from 'vitest';
import { checkAtStart, type CheckOptions } from './connection-check.js';
import { httpTargetOptionsSchema } from './options.js';

describe('checkAtStart', () => {
  it('runs the check at start within check_timeout_s and aborts it at stop', async () => {
    const seen: Required<CheckOptions>[] = [];
    const lifecycle = checkAtStart(
      httpTargetOptionsSchema.parse({ check_timeout_s: 3 }),
      (check) => {
        seen.push(check);
        return Promise.resolve();
      },
    );
    expect(seen).toHaveLength(0);
    await lifecycle.start?.();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.timeoutMs).toBe(3000);
    expect(seen[0]?.signal.aborted).toBe(false);
    await lifecycle.stop?.();
    expect(seen[0]?.signal.aborted).toBe(true);
  });
});
