import { parseConfig } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { hasStaticRoute, webhookCommandsProblem } from './context.js';

const home = '/srv/gw';

describe('webhookCommandsProblem', () => {
  it('allows the commands with the webhook platform on and a lasting store', () => {
    expect(
      webhookCommandsProblem({ config: parseConfig({}), path: undefined, home }),
    ).toBeUndefined();
  });

  it('refuses with a hint naming the key when the webhook platform is off', () => {
    const config = parseConfig({ platforms: { webhook: { enabled: false } } });
    expect(webhookCommandsProblem({ config, path: '/srv/gw/config.yaml', home })).toBe(
      'the webhook platform is disabled (platforms.webhook.enabled is not true in /srv/gw/config.yaml); set it to true to use subscriptions',
    );
  });

  it('refuses a memory store, where a subscription would not outlive the command', () => {
    const config = parseConfig({ store: { kind: 'memory' } });
    expect(webhookCommandsProblem({ config, path: undefined, home })).toContain('store.kind');
  });
});

describe('hasStaticRoute', () => {
  it('finds routes of config by name, not inherited object keys', () => {
    const config = parseConfig({ platforms: { webhook: { extra: { routes: { ci: {} } } } } });
    expect(hasStaticRoute({ config }, 'ci')).toBe(true);
    expect(hasStaticRoute({ config }, 'toString')).toBe(false);
  });
});
