import { describe, expect, it } from 'vitest';
import { altforgeTokenFor, matchingPattern } from './altforge-tokens.js';

const tokens = {
  'acme/*': 'group-token',
  'acme/payments': 'payments-token',
  'acme/platform/*': 'platform-token',
};

describe('platforms.altforge.tokens', () => {
  it('gives a project named exactly its own token, over its group’s', () => {
    expect(altforgeTokenFor({ tokens }, 'acme/payments')).toBe('payments-token');
  });

  it('gives other projects of a group the group’s token, the deepest group first', () => {
    expect(altforgeTokenFor({ tokens }, 'acme/web')).toBe('group-token');
    expect(altforgeTokenFor({ tokens }, 'acme/platform/api')).toBe('platform-token');
    expect(altforgeTokenFor({ tokens }, 'ACME/Web')).toBe('group-token');
  });

  it('falls back to platforms.altforge.token, then to none (glab’s own login)', () => {
    expect(altforgeTokenFor({ tokens, token: 'default' }, 'other/web')).toBe('default');
    expect(altforgeTokenFor({ tokens }, 'other/web')).toBeUndefined();
    expect(altforgeTokenFor({ tokens, token: 'default' }, undefined)).toBe('default');
  });

  it('does not read a group pattern as a prefix of a longer group name', () => {
    expect(matchingPattern(['acme/*'], 'acme-corp/web')).toBeUndefined();
    expect(matchingPattern(['acme/*'], 'acme')).toBeUndefined();
  });
});
