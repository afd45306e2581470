import { definePlugin, parseConfig } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { restartOnlyChanges } from './reload-restart-keys.js';

describe('restartOnlyChanges', () => {
  const running = parseConfig({
    platforms: { webhook: { extra: { secret: 'a', routes: { r: {} } } } },
  });

  it('is empty when only routes, secrets and filters change', () => {
    const next = parseConfig({
      platforms: {
        webhook: {
          extra: {
            secret: ['b', 'a'],
            rate_limit: 5,
            routes: { r: { actions: ['opened'] }, s: {} },
          },
        },
      },
    });
    expect(restartOnlyChanges(running, next)).toEqual([]);
  });

  it('names the settings read only at start', () => {
    const next = parseConfig({
      store: { kind: 'memory' },
      platforms: {
        webhook: { extra: { secret: 'a', port: 9000, host: '127.0.0.1', routes: { r: {} } } },
      },
    });
    expect(restartOnlyChanges(running, next)).toEqual([
      'store',
      'platforms.webhook.extra.host',
      'platforms.webhook.extra.port',
    ]);
  });

  it('names a plugin-owned slice, which its plugin reads at setup', () => {
    const plugin = definePlugin({
      name: 'pager-target',
      platforms: { pager: z.strictObject({ url: z.url() }) },
      setup() {},
    });
    const raw = (url: string) => ({
      platforms: { pager: { url }, webhook: { extra: { secret: 'a', routes: { r: {} } } } },
    });
    const before = parseConfig(raw('https://pager.example/a'), {}, [plugin]);
    const after = parseConfig(raw('https://pager.example/b'), {}, [plugin]);
    expect(restartOnlyChanges(before, after, ['pager'])).toEqual(['platforms.pager']);
    expect(restartOnlyChanges(before, before, ['pager'])).toEqual([]);
  });
});
