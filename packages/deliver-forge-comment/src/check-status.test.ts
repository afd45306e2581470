import { describe, expect, it } from 'vitest';
import { checkedExtra, finalCheck, statusDescription } from './check-status.js';

describe('check: true', () => {
  it('is asked only by a route to one of the targets, templates rendered', () => {
    const route = (deliver_extra: Record<string, unknown>) => ({
      deliver: 'gitea_review',
      deliver_extra,
    });
    expect(checkedExtra(route({ check: true }), ['gitea_review'], {})).toEqual({ check: true });
    expect(checkedExtra(route({ check: '{on}' }), ['gitea_review'], { on: 'true' })).toEqual({
      check: 'true',
    });
    expect(checkedExtra(route({ check: false }), ['gitea_review'], {})).toBeUndefined();
    expect(checkedExtra(route({ check: true }), ['bitbucket_review'], {})).toBeUndefined();
    expect(checkedExtra(undefined, ['gitea_review'], {})).toBeUndefined();
  });

  it('ends a delivery that posted nothing: failure when it failed, success naming why when it was not to run', () => {
    expect(finalCheck({ status: 'failed', error: 'HTTP 403' })).toEqual({
      state: 'failure',
      description: 'The review failed: HTTP 403',
    });
    expect(finalCheck({ status: 'over_budget' })?.state).toBe('failure');
    expect(finalCheck({ status: 'skipped', error: 'repo_config: draft' })).toEqual({
      state: 'success',
      description: 'Not reviewed (skipped): repo_config: draft',
    });
    expect(finalCheck({ status: 'retry' })).toBeUndefined();
    expect(finalCheck({ status: 'delivered' })).toBeUndefined();
  });

  it('describes with the first line that has words, cut to 140 characters', () => {
    expect(statusDescription('<!-- marker -->\n\n  First line.\nSecond.')).toBe('First line.');
    const long = statusDescription('x'.repeat(300));
    expect(long).toHaveLength(140);
    expect(long.endsWith('…')).toBe(true);
  });
});
