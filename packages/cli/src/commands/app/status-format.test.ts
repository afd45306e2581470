import type { AppStatus } from '@webhook-gateway/deliver-forge-comment/app';
import { describe, expect, it } from 'vitest';
import { webhookMatch } from './status-check.js';
import { appStatusExitCode, appStatusJson, formatAppStatus } from './status-format.js';

const API = 'https://api.github.com';

const status: AppStatus = {
  app: { id: 123456, slug: 'review-bot', name: 'review-bot' },
  installations: [
    {
      id: 90,
      account: 'acme',
      accountType: 'Organization',
      repositorySelection: 'selected',
      repositories: { count: 2 },
      suspended: false,
    },
    {
      id: 91,
      account: 'octo',
      accountType: 'User',
      repositorySelection: 'all',
      repositories: { error: 'HTTP 403: This installation has been suspended' },
      suspended: true,
    },
  ],
  webhook: {
    url: 'https://hooks.example.com/webhooks/pull-requests',
    active: true,
    contentType: 'json',
  },
};
const reaches = webhookMatch(status.webhook.url, 'https://hooks.example.com', ['pull-requests']);

describe('formatAppStatus', () => {
  it('lists the installations, the webhook and whether it reaches a route', () => {
    expect(formatAppStatus(status, API, reaches)).toBe(
      [
        'App: review-bot (review-bot, app_id 123456) at https://api.github.com',
        '',
        'Installations: 2',
        '  ACCOUNT  TYPE          INSTALLATION  REPOSITORIES',
        '  acme     Organization  90            2 (selected)',
        '  octo     User          91            ? (all)       suspended',
        '  octo: repositories not counted: HTTP 403: This installation has been suspended',
        '',
        'Webhook: https://hooks.example.com/webhooks/pull-requests (active)',
        '  it reaches route "pull-requests" of this gateway',
      ].join('\n'),
    );
  });

  it('exits 1 unless the webhook is active and reaches a route', () => {
    expect(appStatusExitCode(status, reaches)).toBe(0);
    const elsewhere = webhookMatch(status.webhook.url, 'https://other.example.com', [
      'pull-requests',
    ]);
    expect(appStatusExitCode(status, elsewhere)).toBe(1);
    const inactive = { ...status, webhook: { ...status.webhook, active: false } };
    expect(appStatusExitCode(inactive, reaches)).toBe(1);
  });

  it('says the same as JSON', () => {
    expect(appStatusJson(status, API, reaches)).toEqual({
      app: { id: 123456, slug: 'review-bot', name: 'review-bot', api_url: API },
      installations: [
        {
          id: 90,
          account: 'acme',
          account_type: 'Organization',
          repository_selection: 'selected',
          repositories: 2,
          suspended: false,
        },
        {
          id: 91,
          account: 'octo',
          account_type: 'User',
          repository_selection: 'all',
          repositories: null,
          repositories_error: 'HTTP 403: This installation has been suspended',
          suspended: true,
        },
      ],
      webhook: {
        url: status.webhook.url,
        active: true,
        route: 'pull-requests',
        reaches_gateway: true,
      },
    });
  });
});
