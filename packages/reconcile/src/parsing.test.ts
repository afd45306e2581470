/** The pure parts: the CLI's --include output, the Link cursor, Retry-After, config rules. */
import { parseConfig } from '@webhook-gateway/core';
import forgeComment from '@webhook-gateway/deliver-forge-comment';
import { describe, expect, it } from 'vitest';
import { failureOfResponse, retryAfterMs } from './failures.js';
import { parseIncluded } from './forge-api.js';
import { nextCursor } from './forge-log.js';
import { reconcileConfigProblems, reconcileIntervalMs } from './reconciled-routes.js';
import reconcile from './index.js';

const CONTEXT = {
  cli: 'gh',
  settingsKey: 'platforms.forge',
  hook: 'repos/o/r/hooks/1',
  keyPath: 'platforms.webhook.extra.routes.reviews.reconcile',
  right: 'admin:repo_hook',
};

describe('parseIncluded', () => {
  it('reads the status, lower-cased headers and the body gh printed with --include', () => {
    const output =
      'HTTP/2.0 200 OK\r\nLink: <https://x/?cursor=a>; rel="next"\r\nX-Thing: 1\r\n\r\n[{"id":1}]';
    expect(parseIncluded(output)).toEqual({
      status: 200,
      headers: { link: '<https://x/?cursor=a>; rel="next"', 'x-thing': '1' },
      body: '[{"id":1}]',
    });
  });

  it('is undefined when the CLI failed before any request', () => {
    expect(parseIncluded('')).toBeUndefined();
    expect(
      parseIncluded('To get started with GitHub CLI, please run:  gh auth login'),
    ).toBeUndefined();
  });
});

describe('nextCursor', () => {
  it('takes the cursor of the rel="next" page and ignores the others', () => {
    const link =
      '<https://api.github.com/repos/o/r/hooks/1/deliveries?per_page=100&cursor=v1_99>; rel="next", <https://api.github.com/x?cursor=v1_1>; rel="prev"';
    expect(nextCursor(link)).toBe('v1_99');
    expect(nextCursor('<https://api.github.com/x?cursor=v1_1>; rel="prev"')).toBeUndefined();
    expect(nextCursor(undefined)).toBeUndefined();
  });
});

describe('retryAfterMs and failureOfResponse', () => {
  it('honours Retry-After in seconds, then the rate limit reset', () => {
    expect(retryAfterMs({ status: 403, headers: { 'retry-after': '30' }, body: '' }, 0)).toBe(
      30_000,
    );
    expect(
      retryAfterMs(
        {
          status: 403,
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '100' },
          body: '',
        },
        40_000,
      ),
    ).toBe(60_000);
    expect(retryAfterMs({ status: 403, headers: {}, body: '' }, 0)).toBeUndefined();
  });

  it('tells a 403 without a rate limit apart as missing rights, naming the right', () => {
    const failure = failureOfResponse(
      { status: 403, headers: {}, body: '{"message":"Must have admin rights to Repository."}' },
      CONTEXT,
      0,
    );
    expect(failure.kind).toBe('no-admin-rights');
    expect(failure.message).toBe(
      "the token may not read or redeliver repos/o/r/hooks/1's deliveries (HTTP 403: Must have admin rights to Repository.); it needs admin:repo_hook",
    );
  });
});

describe('reconcile config', () => {
  const config = (extra: Record<string, unknown>, reconcileBlock: unknown) =>
    parseConfig(
      {
        platforms: {
          webhook: {
            extra: { ...extra, routes: { reviews: { secret: 's', reconcile: reconcileBlock } } },
          },
        },
      },
      {},
      [reconcile],
    );

  it('hook_id: auto needs extra.public_url, named by key path', () => {
    expect(reconcileConfigProblems(config({}, { repo: 'o/r', hook_id: 'auto' }))).toEqual([
      expect.objectContaining({ path: 'platforms.webhook.extra.routes.reviews.reconcile.hook_id' }),
    ]);
    expect(
      reconcileConfigProblems(
        config({ public_url: 'https://hooks.example.com' }, { repo: 'o/r', hook_id: 'auto' }),
      ),
    ).toEqual([]);
  });

  it('passes every 600 s unless extra.reconcile_interval_s says otherwise', () => {
    expect(reconcileIntervalMs(config({}, { org: 'acme', hook_id: 9 }))).toBe(600_000);
    expect(
      reconcileIntervalMs(config({ reconcile_interval_s: 60 }, { project: 'g/app', hook_id: 7 })),
    ).toBe(60_000);
  });

  it('refuses a repo that is not owner/name, with its key path', () => {
    expect(() => config({}, { repo: 'just-a-name', hook_id: 1 })).toThrow(
      /routes\.reviews\.reconcile/,
    );
  });
});

describe('reconcile: { hook: app }', () => {
  const APP = { app_id: 1, private_key: '${GITHUB_APP_PRIVATE_KEY}' };
  const config = (
    routes: Record<string, unknown>,
    options: { app?: boolean; publicUrl?: boolean } = {},
  ) =>
    parseConfig(
      {
        platforms: {
          webhook: {
            extra: {
              ...(options.publicUrl === false ? {} : { public_url: 'https://hooks.example.com' }),
              routes,
            },
          },
          forge: options.app === false ? {} : { app: APP },
        },
      },
      { GITHUB_APP_PRIVATE_KEY: 'a PEM key' },
      [reconcile, forgeComment],
    );
  const appRoute = { secret: 's', reconcile: { hook: 'app' } };

  it('is accepted with the App and public_url, and turns on the periodic pass', () => {
    const valid = config({ reviews: appRoute });
    expect(reconcileConfigProblems(valid)).toEqual([]);
    expect(reconcileIntervalMs(valid)).toBe(600_000);
  });

  it('needs platforms.forge.app, named at the route’s key path', () => {
    expect(reconcileConfigProblems(config({ reviews: appRoute }, { app: false }))).toEqual([
      {
        path: 'platforms.webhook.extra.routes.reviews.reconcile.hook',
        message:
          'hook: app reads the GitHub App’s webhook log, and no App is configured: set platforms.forge.app (docs/github-app.md), or name a repository or organization hook',
      },
    ]);
  });

  it('needs public_url, to tell that the App’s webhook points at the route', () => {
    expect(reconcileConfigProblems(config({ reviews: appRoute }, { publicUrl: false }))).toEqual([
      {
        path: 'platforms.webhook.extra.routes.reviews.reconcile.hook',
        message:
          'hook: app reads the App’s webhook log when the App’s webhook points at this route, which needs platforms.webhook.extra.public_url (the address the forge posts to)',
      },
    ]);
  });

  it('belongs to one route: the App has one webhook', () => {
    expect(reconcileConfigProblems(config({ a: appRoute, b: appRoute }))).toEqual([
      {
        path: 'platforms.webhook.extra.routes.b.reconcile.hook',
        message:
          'the App has one webhook, and route "a" already reads its log (hook: app); only the route its webhook points at can',
      },
    ]);
  });

  it('refuses another hook name, with its key path', () => {
    expect(() => config({ reviews: { secret: 's', reconcile: { hook: 'repo' } } })).toThrow(
      'platforms.webhook.extra.routes.reviews.reconcile: expected { repo: owner/name, hook_id }, { org, hook_id }, { project: group/name, hook_id } or { hook: app }',
    );
  });
});
