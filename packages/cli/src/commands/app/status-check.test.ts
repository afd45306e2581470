import { describe, expect, it } from 'vitest';
import { webhookMatch, webhookMatchLine } from './status-check.js';

describe('webhookMatch', () => {
  const routes = ['pull-requests', 'github-app'];

  it('names the route the App’s webhook posts to', () => {
    const match = webhookMatch(
      'https://hooks.example.com/webhooks/github-app',
      'https://hooks.example.com/',
      routes,
    );
    expect(match).toEqual({ kind: 'route', route: 'github-app' });
    expect(webhookMatchLine(match)).toBe('it reaches route "github-app" of this gateway');
  });

  it('lists where the routes are when it posts elsewhere', () => {
    const match = webhookMatch('https://old.example.com/hook', 'https://hooks.example.com', routes);
    expect(webhookMatchLine(match)).toBe(
      'it does not reach this gateway: its routes are at https://hooks.example.com/webhooks/pull-requests, https://hooks.example.com/webhooks/github-app',
    );
  });

  it('cannot tell without a public_url, and says an App without a URL gets nothing', () => {
    expect(webhookMatch('https://x/webhooks/a', undefined, routes)).toEqual({
      kind: 'no-public-url',
    });
    expect(webhookMatch('', 'https://x', routes)).toEqual({ kind: 'no-url' });
  });
});
