import { parseConfig } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
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
});

describe('restartOnlyChanges and reconcile', () => {
  it('names a route reconcile block, public_url and reconcile_interval_s: the pass is set up at start', () => {
    const running = parseConfig({
      platforms: { webhook: { extra: { secret: 'a', routes: { r: {} } } } },
    });
    const next = parseConfig({
      platforms: {
        webhook: {
          extra: {
            secret: 'a',
            public_url: 'https://hooks.example.com',
            reconcile_interval_s: 60,
            routes: { r: { reconcile: { repo: 'o/r', hook_id: 'auto' } } },
          },
        },
      },
    });
    expect(restartOnlyChanges(running, next)).toEqual([
      'platforms.webhook.extra.public_url',
      'platforms.webhook.extra.reconcile_interval_s',
      'platforms.webhook.extra.routes.*.reconcile',
    ]);
  });
});
