import { describe, expect, it } from 'vitest';
import { coalescePlan } from './coalesce.js';
import { routeSchema } from './config/schema.js';
import { coalescedTiming } from './delivery.js';

const PAYLOAD = { number: 7, repository: { full_name: 'octo/repo' }, pull_request: { number: 7 } };

describe('coalescePlan', () => {
  it('renders the key into the order key, with Hermes defaults', () => {
    const route = routeSchema.parse({ coalesce: { key: '{repository.full_name}#{number}' } });
    expect(coalescePlan('ci', route, PAYLOAD)).toEqual({
      orderKey: 'ci|coalesce|octo/repo#7',
      wait: { windowMs: 30_000, maxWaitMs: 300_000 },
    });
  });

  it('reads a bare field as a placeholder, and Hermes spellings', () => {
    const route = routeSchema.parse({
      coalesce: { key: 'pull_request.number', window_seconds: 5, max_wait_seconds: 9 },
    });
    expect(coalescePlan('ci', route, PAYLOAD)).toEqual({
      orderKey: 'ci|coalesce|7',
      wait: { windowMs: 5_000, maxWaitMs: 9_000 },
    });
  });

  it('does not coalesce a payload that lacks a field of the key', () => {
    const route = routeSchema.parse({ coalesce: { key: '{issue.number}' } });
    expect(coalescePlan('ci', route, PAYLOAD)).toBeUndefined();
  });

  it('refuses a coalesce without a key, or max_wait_s below window_s', () => {
    const keyless = routeSchema.safeParse({ coalesce: { window_s: 3 } });
    expect(keyless.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['coalesce.key']);
    const short = routeSchema.safeParse({ coalesce: { key: 'n', window_s: 30, max_wait_s: 5 } });
    expect(short.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'coalesce.max_wait_s',
    ]);
  });
});

describe('coalescedTiming', () => {
  const wait = { windowMs: 5_000, maxWaitMs: 8_000 };

  it('waits the window when nothing was superseded', () => {
    expect(coalescedTiming(1_000, wait, [])).toEqual({
      nextAttemptAt: 6_000,
      burstStartedAt: 1_000,
      coalesced: 0,
    });
  });

  it('takes over the burst of what it superseded, and caps the wait at max_wait', () => {
    const superseded = [{ receivedAt: 4_000, burstStartedAt: 2_000, coalesced: 3 }];
    expect(coalescedTiming(7_000, wait, superseded)).toEqual({
      nextAttemptAt: 10_000,
      burstStartedAt: 2_000,
      coalesced: 4,
    });
  });

  it('never starts before it arrived', () => {
    expect(coalescedTiming(20_000, wait, [{ receivedAt: 1_000 }]).nextAttemptAt).toBe(20_000);
  });
});
