import { describe, expect, it } from 'vitest';
import { canReplay } from './replay-rule.js';

describe('canReplay', () => {
  it('offers a replay of finished deliveries only', () => {
    expect(canReplay({ status: 'delivered' })).toBe(true);
    expect(canReplay({ status: 'failed' })).toBe(true);
    expect(canReplay({ status: 'queued' })).toBe(false);
    expect(canReplay({ status: 'running' })).toBe(false);
  });
});
