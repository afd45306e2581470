import { describe, expect, it } from 'vitest';
import { appManifest, defaultAppName } from './manifest.js';
import { manifestPage } from './manifest-page.js';

describe('appManifest', () => {
  const manifest = appManifest({
    name: 'review-bot',
    publicUrl: 'https://hooks.example.com/',
    route: 'pull-requests',
    redirectUrl: 'http://127.0.0.1:4000/callback',
  });

  it('points an active webhook at the route, asks for the least permissions, and is private', () => {
    expect(manifest).toEqual({
      name: 'review-bot',
      url: 'https://hooks.example.com/',
      hook_attributes: { url: 'https://hooks.example.com/webhooks/pull-requests', active: true },
      redirect_url: 'http://127.0.0.1:4000/callback',
      public: false,
      default_events: ['pull_request', 'issue_comment', 'pull_request_review_comment'],
      default_permissions: {
        contents: 'read',
        pull_requests: 'write',
        issues: 'write',
        checks: 'write',
        metadata: 'read',
      },
    });
  });

  it('goes into the page’s form as one escaped field the browser hands back whole', () => {
    const hostile = { ...manifest, name: `x"><script>alert(1)</script>` };
    const html = manifestPage({
      manifest: hostile,
      action: 'https://github.com/a?state=s&x=1',
      owner: 'me',
    });
    expect(html).not.toContain('<script>');
    const value = /name="manifest" value="([^"]*)"/.exec(html)?.[1] ?? '';
    const decoded = value
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
    expect(JSON.parse(decoded)).toEqual(hostile);
    expect(html).toContain('action="https://github.com/a?state=s&amp;x=1"');
  });
});

describe('defaultAppName', () => {
  it('names the gateway and its public host, within the forge’s 34 characters', () => {
    expect(defaultAppName('https://hooks.example.com')).toBe('webhook-gateway-hooks');
    expect(defaultAppName('https://a-very-long-host-name-for-hooks.example.com')).toHaveLength(34);
  });
});
